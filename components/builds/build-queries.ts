"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Build, BuildList, BuildLogs, BuildStatus, StartBuildRequestInput } from "@/contract/builds/builds.ts";
import type { ModelPresetList } from "@/contract/builds/model-presets.ts";
import { fetchJson } from "../api/fetch-json.ts";

const pollMs = 2_000;

export function isRunning(status: BuildStatus): boolean {
  return status === "IN_PROGRESS";
}

export function buildPath(id: string): string {
  return `/api/builds/${encodeURIComponent(id)}`;
}

export function useBuilds() {
  return useQuery({
    queryKey: ["builds"],
    queryFn: ({ signal }) => fetchJson<BuildList>("/api/builds", { signal }),
    refetchInterval: (query) => (query.state.data?.builds.some((build) => isRunning(build.status)) ? pollMs : false),
  });
}

export function useBuild(id: string) {
  return useQuery({
    queryKey: ["builds", id],
    queryFn: ({ signal }) => fetchJson<Build>(buildPath(id), { signal }),
    refetchInterval: (query) => (query.state.data && !isRunning(query.state.data.status) ? false : pollMs),
  });
}

/** The whole tail while the build runs; the server decides how many lines a tail holds. */
export function useBuildLogs(id: string, running: boolean) {
  return useQuery({
    // A new key when the build finishes fetches the tail once more, so the last lines are not lost.
    queryKey: ["builds", id, "logs", running],
    queryFn: ({ signal }) => fetchJson<BuildLogs>(`${buildPath(id)}/logs`, { signal }),
    refetchInterval: running ? pollMs : false,
  });
}

export function useStartBuild() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: StartBuildRequestInput) => fetchJson<Build>("/api/builds", { method: "POST", body: request }),
    onSuccess: () => client.invalidateQueries({ queryKey: ["builds"] }),
  });
}

export function useModelPresets() {
  return useQuery({
    queryKey: ["model-presets"],
    queryFn: ({ signal }) => fetchJson<ModelPresetList>("/api/model-presets", { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { BuildStatus, StartBuildRequestInput } from "@/contract/builds/builds.ts";
import { api } from "../api/console-client.ts";
import { queryKeys } from "../api/query-keys.ts";

const pollMs = 2_000;

export function isRunning(status: BuildStatus): boolean {
  return status === "IN_PROGRESS";
}

/** The build's page in the console. */
export function buildPage(id: string): string {
  return `/builds/${encodeURIComponent(id)}`;
}

export function useBuilds() {
  return useQuery({
    queryKey: queryKeys.builds.all,
    queryFn: ({ signal }) => api("listBuilds", { signal }),
    refetchInterval: (query) => (query.state.data?.builds.some((build) => isRunning(build.status)) ? pollMs : false),
  });
}

export function useBuild(id: string) {
  return useQuery({
    queryKey: queryKeys.builds.one(id),
    queryFn: ({ signal }) => api("getBuild", { params: { id }, signal }),
    refetchInterval: (query) => (query.state.data && !isRunning(query.state.data.status) ? false : pollMs),
  });
}

/** The whole tail while the build runs; the server decides how many lines a tail holds. */
export function useBuildLogs(id: string, running: boolean) {
  return useQuery({
    queryKey: queryKeys.builds.logs(id, running),
    queryFn: ({ signal }) => api("buildLogs", { params: { id }, signal }),
    refetchInterval: running ? pollMs : false,
  });
}

export function useStartBuild() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: StartBuildRequestInput) => api("startBuild", { body: request }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.builds.all }),
  });
}

/** StopBuild; the build's page then polls it to STOPPED. */
export function useStopBuild(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api("stopBuild", { params: { id } }),
    onSuccess: (build) => {
      client.setQueryData(queryKeys.builds.one(id), build);
      return client.invalidateQueries({ queryKey: queryKeys.builds.all });
    },
  });
}

/** The same build again; resolves to the new build. */
export function useRetryBuild(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api("retryBuild", { params: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.builds.all }),
  });
}

export function useModelPresets() {
  return useQuery({
    queryKey: queryKeys.modelPresets,
    queryFn: ({ signal }) => api("modelPresets", { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

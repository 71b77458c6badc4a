"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  DatasetExport,
  StartTransformJobInput,
  TransformJobDetail,
  TransformJobList,
  TransformJobStatus,
  TransformJobSummary,
} from "@/contract/batch/transform-jobs.ts";
import { fetchJson } from "../api/fetch-json.ts";

const pollMs = 3_000;

export function isActive(status: TransformJobStatus): boolean {
  return status === "InProgress" || status === "Stopping";
}

export function jobPath(name: string): string {
  return `/api/batch/${encodeURIComponent(name)}`;
}

export function useTransformJobs() {
  return useQuery({
    queryKey: ["batch"],
    queryFn: ({ signal }) => fetchJson<TransformJobList>("/api/batch", { signal }),
    refetchInterval: (query) => (query.state.data?.jobs.some((job) => isActive(job.status)) ? pollMs : false),
  });
}

export function useTransformJob(name: string) {
  return useQuery({
    queryKey: ["batch", name],
    queryFn: ({ signal }) => fetchJson<TransformJobDetail>(jobPath(name), { signal }),
    refetchInterval: (query) => (query.state.data && !isActive(query.state.data.status) ? false : pollMs),
  });
}

export function useStartTransformJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: StartTransformJobInput) =>
      fetchJson<TransformJobSummary>("/api/batch", { method: "POST", body: request }),
    onSuccess: () => client.invalidateQueries({ queryKey: ["batch"] }),
  });
}

export function useStopTransformJob(name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      fetchJson<{ name: string; status: TransformJobStatus }>(`${jobPath(name)}/stop`, { method: "POST" }),
    onSuccess: () => client.invalidateQueries({ queryKey: ["batch"] }),
  });
}

export function useExportDataset() {
  return useMutation({
    mutationFn: (datasetId: string) =>
      fetchJson<DatasetExport>(`/api/datasets/${encodeURIComponent(datasetId)}/export`, { method: "POST" }),
  });
}

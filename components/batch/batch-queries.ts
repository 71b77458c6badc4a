"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { StartTransformJobInput, TransformJobStatus } from "@/contract/batch/transform-jobs.ts";
import { api } from "../api/console-client.ts";
import { queryKeys } from "../api/query-keys.ts";

const pollMs = 3_000;

export function isActive(status: TransformJobStatus): boolean {
  return status === "InProgress" || status === "Stopping";
}

/** The job's page in the console. */
export function jobPage(name: string): string {
  return `/batch/${encodeURIComponent(name)}`;
}

export function useTransformJobs() {
  return useQuery({
    queryKey: queryKeys.batch.all,
    queryFn: ({ signal }) => api("listTransformJobs", { signal }),
    refetchInterval: (query) => (query.state.data?.jobs.some((job) => isActive(job.status)) ? pollMs : false),
  });
}

export function useTransformJob(name: string) {
  return useQuery({
    queryKey: queryKeys.batch.one(name),
    queryFn: ({ signal }) => api("describeTransformJob", { params: { name }, signal }),
    refetchInterval: (query) => (query.state.data && !isActive(query.state.data.status) ? false : pollMs),
  });
}

export function useStartTransformJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: StartTransformJobInput) => api("startTransformJob", { body: request }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.batch.all }),
  });
}

export function useStopTransformJob(name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api("stopTransformJob", { params: { name } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.batch.all }),
  });
}

export function useExportDataset() {
  return useMutation({
    mutationFn: (datasetId: string) => api("exportDataset", { params: { id: datasetId } }),
  });
}

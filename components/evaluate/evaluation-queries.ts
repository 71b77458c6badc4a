"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CreateEvaluationInput } from "@/contract/evaluate/evaluations.ts";
import { api } from "../api/console-client.ts";
import { queryKeys } from "../api/query-keys.ts";

const pollMs = 1_000;

export function useDatasets() {
  return useQuery({
    queryKey: queryKeys.datasets.all,
    queryFn: ({ signal }) => api("listDatasets", { signal }),
  });
}

/** One dataset's detail (with what earlier evaluations found over an endpoint's token budget); none without an id. */
export function useDataset(id: string) {
  return useQuery({
    queryKey: [...queryKeys.datasets.all, id],
    queryFn: ({ signal }) => api("getDataset", { params: { id }, signal }),
    enabled: id !== "",
  });
}

/** Uploads a file as multipart form data. */
function uploadFile(file: File, name: string) {
  const form = new FormData();
  form.set("file", file);
  if (name.trim()) form.set("name", name.trim());
  return api("uploadDataset", { form });
}

export function useUploadDataset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ file, name }: { file: File; name: string }) => uploadFile(file, name),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.datasets.all }),
  });
}

export function useAddSample() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (sample: string) => api("uploadDataset", { body: { sample } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.datasets.all }),
  });
}

/** Polls while a run is going. */
export function useEvaluations() {
  return useQuery({
    queryKey: queryKeys.evaluations.all,
    queryFn: ({ signal }) => api("listEvaluations", { signal }),
    refetchInterval: (query) =>
      query.state.data?.evaluations.some((evaluation) => evaluation.status === "running") ? pollMs : false,
  });
}

export function useEvaluation(id: string, compareWith: string | null) {
  return useQuery({
    queryKey: queryKeys.evaluations.one(id, compareWith),
    queryFn: ({ signal }) =>
      api("getEvaluation", { params: { id }, query: { compareWith: compareWith ?? undefined }, signal }),
    refetchInterval: (query) => (query.state.data?.status === "running" ? pollMs : false),
  });
}

export function useStartEvaluation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateEvaluationInput) => api("startEvaluation", { body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.evaluations.all }),
  });
}

export function useCancelEvaluation(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api("cancelEvaluation", { params: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.evaluations.all }),
  });
}

export function useRetryFailedItems(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api("retryFailedEvaluationItems", { params: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.evaluations.all }),
  });
}

/** Production compared with a run of the endpoint: its realised quality is read again. */
export function useChooseEvaluation(endpointName: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (runId: string) => api("chooseEvaluation", { params: { name: endpointName }, body: { runId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.endpoints.one(endpointName) }),
  });
}

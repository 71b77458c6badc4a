"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { DatasetList, DatasetSummary } from "@/contract/evaluate/datasets.ts";
import type {
  CreateEvaluationInput,
  EvaluationDetail,
  EvaluationList,
  EvaluationResponse,
  EvaluationSummary,
} from "@/contract/evaluate/evaluations.ts";
import { ApiError, errorFromResponse } from "../api/api-error.ts";
import { fetchJson } from "../api/fetch-json.ts";

const pollMs = 1_000;

export function evaluationPath(id: string): string {
  return `/api/evaluations/${encodeURIComponent(id)}`;
}

export function useDatasets() {
  return useQuery({
    queryKey: ["datasets"],
    queryFn: ({ signal }) => fetchJson<DatasetList>("/api/datasets", { signal }),
  });
}

/** Uploads a file as multipart form data (fetchJson sends JSON only). */
async function uploadFile(file: File, name: string): Promise<DatasetSummary> {
  const form = new FormData();
  form.set("file", file);
  if (name.trim()) form.set("name", name.trim());
  let response: Response;
  try {
    response = await fetch("/api/datasets", { method: "POST", body: form });
  } catch (cause) {
    throw new ApiError(0, "network", `The console server could not be reached (${(cause as Error).message}).`);
  }
  const text = await response.text();
  const body: unknown = text ? JSON.parse(text) : undefined;
  if (!response.ok) throw errorFromResponse(response.status, "/api/datasets", body);
  return body as DatasetSummary;
}

export function useUploadDataset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ file, name }: { file: File; name: string }) => uploadFile(file, name),
    onSuccess: () => client.invalidateQueries({ queryKey: ["datasets"] }),
  });
}

export function useAddSample() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (sample: string) => fetchJson<DatasetSummary>("/api/datasets", { method: "POST", body: { sample } }),
    onSuccess: () => client.invalidateQueries({ queryKey: ["datasets"] }),
  });
}

/** Polls while a run is going. */
export function useEvaluations() {
  return useQuery({
    queryKey: ["evaluations"],
    queryFn: ({ signal }) => fetchJson<EvaluationList>("/api/evaluations", { signal }),
    refetchInterval: (query) =>
      query.state.data?.evaluations.some((evaluation) => evaluation.status === "running") ? pollMs : false,
  });
}

export function useEvaluation(id: string, compareWith: string | null) {
  const path = compareWith
    ? `${evaluationPath(id)}?compareWith=${encodeURIComponent(compareWith)}`
    : evaluationPath(id);
  return useQuery({
    queryKey: ["evaluations", id, compareWith],
    queryFn: ({ signal }) => fetchJson<EvaluationResponse>(path, { signal }),
    refetchInterval: (query) => (query.state.data?.status === "running" ? pollMs : false),
  });
}

export function useStartEvaluation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateEvaluationInput) =>
      fetchJson<EvaluationSummary>("/api/evaluations", { method: "POST", body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: ["evaluations"] }),
  });
}

export function useCancelEvaluation(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => fetchJson<EvaluationDetail>(`${evaluationPath(id)}/cancel`, { method: "POST", body: {} }),
    onSuccess: () => client.invalidateQueries({ queryKey: ["evaluations"] }),
  });
}

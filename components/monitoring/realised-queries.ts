"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { GroundTruthBatch, GroundTruthImport } from "@/contract/endpoints/ground-truth.ts";
import type { RealisedWindow } from "@/contract/endpoints/realised-quality.ts";
import { api } from "../api/console-client.ts";
import { queryKeys } from "../api/query-keys.ts";

const realisedKey = (name: string) => [...queryKeys.endpoints.one(name), "realised"] as const;

/** Realised quality over the window; labels arrive late, so a minute between looks is plenty. */
export function useRealisedQuality(name: string, window: RealisedWindow) {
  return useQuery({
    queryKey: [...realisedKey(name), window] as const,
    queryFn: ({ signal }) => api("realisedQuality", { params: { name }, query: { window }, signal }),
    refetchInterval: 60_000,
  });
}

/** Labels sent or read change the realised figures: they are read again. */
function useLabelsIn<T, R>(name: string, call: (input: T) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => client.invalidateQueries({ queryKey: realisedKey(name) }),
  });
}

export const useRecordGroundTruth = (name: string) =>
  useLabelsIn(name, (body: GroundTruthBatch) => api("recordGroundTruth", { params: { name }, body }));

export const useImportGroundTruth = (name: string) =>
  useLabelsIn(name, (body: GroundTruthImport) => api("importGroundTruth", { params: { name }, body }));

"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ExportReviewRequest, LabelDecisionRequest, ReviewOrder } from "@/contract/endpoints/review.ts";
import { api } from "../api/console-client.ts";
import { queryKeys } from "../api/query-keys.ts";

/** How many decisions the page holds ahead of the one shown. */
export const REVIEW_BATCH = 20;

export function useReviewQueue(
  name: string,
  view: { order: ReviewOrder; kind: string | null; includeEvaluation: boolean },
) {
  return useQuery({
    queryKey: [...queryKeys.endpoints.review(name, view.order, view.kind), view.includeEvaluation] as const,
    queryFn: ({ signal }) =>
      api("reviewQueue", {
        params: { name },
        query: {
          order: view.order,
          limit: REVIEW_BATCH,
          ...(view.kind ? { kind: view.kind } : {}),
          ...(view.includeEvaluation ? { includeEvaluation: "true" as const } : {}),
        },
        signal,
      }),
    // A random order is drawn once per look; looking again on focus would reshuffle under the person labelling.
    refetchOnWindowFocus: false,
  });
}

/** A label changes the queue and the Monitoring view's live accuracy: both look again. */
export function useLabelDecision(name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: LabelDecisionRequest) => api("labelDecision", { params: { name }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.endpoints.one(name) }),
  });
}

export function useExportReview(name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ExportReviewRequest) => api("exportReview", { params: { name }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.datasets.all }),
  });
}

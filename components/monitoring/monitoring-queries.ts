"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { DriftRequest } from "@/contract/endpoints/drift.ts";
import type { MonitoringWindow } from "@/contract/endpoints/monitoring.ts";
import type { PromoteShadowRequestInput, ShadowTestRequestInput } from "@/contract/endpoints/shadow-test.ts";
import { api } from "../api/console-client.ts";
import { queryKeys } from "../api/query-keys.ts";

/** How often the view looks for new capture objects; at once again while a look left some unread. */
const refreshMs = 15_000;

export function useEndpointMonitoring(
  name: string,
  /** `window` null: the data's span. `threshold` null: the endpoint's stored threshold (0.5 when none is stored). */
  view: {
    window: MonitoringWindow | null;
    threshold: number | null;
    variant: string | null;
    /** The decision kinds shown: those whose question contains `search` (all when empty), page `page`. */
    kinds: { search: string; page: number };
    includeEvaluation: boolean;
  },
) {
  return useQuery({
    queryKey: [
      ...queryKeys.endpoints.monitoring(name, view.window ?? "data-span", view.threshold, view.variant, view.kinds),
      view.includeEvaluation,
    ] as const,
    queryFn: ({ signal }) =>
      api("endpointMonitoring", {
        params: { name },
        query: {
          ...(view.window === null ? {} : { window: view.window }),
          ...(view.includeEvaluation ? { includeEvaluation: "true" as const } : {}),
          ...(view.threshold === null ? {} : { threshold: view.threshold }),
          ...(view.variant ? { variant: view.variant } : {}),
          ...(view.kinds.search ? { kindSearch: view.kinds.search } : {}),
          kindPage: view.kinds.page,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.source.moreToRead ? 500 : refreshMs),
  });
}

/** Starting, ending and promoting a shadow test change the endpoint: its queries (monitoring too) look again. */
function useEndpointChange<T, R>(name: string, call: (input: T) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.endpoints.one(name) }),
  });
}

export const useSetEndpointThreshold = (name: string) =>
  useEndpointChange(name, (threshold: number) =>
    api("setEndpointThreshold", { params: { name }, body: { threshold } }),
  );

/** The threshold the endpoint's decisions are read against (kept on the endpoint, else the default). */
export function useEndpointThreshold(name: string) {
  return useQuery({
    queryKey: [...queryKeys.endpoints.one(name), "threshold"] as const,
    queryFn: ({ signal }) => api("endpointThreshold", { params: { name }, signal }),
    enabled: name !== "",
  });
}

export const useStartShadowTest = (name: string) =>
  useEndpointChange(name, (body: ShadowTestRequestInput) => api("startShadowTest", { params: { name }, body }));

export const useEndShadowTest = (name: string) =>
  useEndpointChange(name, (_: undefined) => api("endShadowTest", { params: { name } }));

export const usePromoteShadow = (name: string) =>
  useEndpointChange(name, (body: PromoteShadowRequestInput) => api("promoteShadow", { params: { name }, body }));

/** Each baselined kind's drift over the last hour, its baseline and its alarms (the schedule publishes every 5 min). */
export function useEndpointDrift(name: string) {
  return useQuery({
    queryKey: [...queryKeys.endpoints.one(name), "drift"] as const,
    queryFn: ({ signal }) => api("endpointDrift", { params: { name }, signal }),
    refetchInterval: 60_000,
  });
}

export function useSetDrift(name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: DriftRequest) => api("setDrift", { params: { name }, body }),
    onSuccess: (answer) => client.setQueryData([...queryKeys.endpoints.one(name), "drift"], answer),
  });
}

/** A shadow promotion waiting for its update, and the last one given up; looked at again while one waits. */
export function useShadowPromotionState(name: string) {
  return useQuery({
    queryKey: [...queryKeys.endpoints.one(name), "shadow-promotion"] as const,
    queryFn: ({ signal }) => api("shadowPromotionState", { params: { name }, signal }),
    refetchInterval: (query) => (query.state.data?.waiting ? 10_000 : 60_000),
  });
}

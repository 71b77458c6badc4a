"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AutoscalingRequestInput, AutoscalingResponse } from "@/contract/endpoints/autoscaling.ts";
import type { DeployRequestInput, DeployResult } from "@/contract/endpoints/deploy.ts";
import type {
  DeleteResult,
  EndpointDetail,
  EndpointList,
  ScaleRequest,
  ScaleResult,
} from "@/contract/endpoints/endpoint.ts";
import { isTransitional } from "@/contract/endpoints/status.ts";
import type { UpdateRequestInput, UpdateResult } from "@/contract/endpoints/update.ts";
import { fetchJson } from "../api/fetch-json.ts";

const pollMs = 3_000;
/** Autoscaling changes the instance count on its own, on alarms of one-minute periods: the page looks that often. */
const autoscaledPollMs = 10_000;

/**
 * How often an endpoint's page refreshes: quickly while it changes, slowly while autoscaling may change it (a
 * scaling activity starts from InService, which a page polling only transitional states would never see).
 */
export function endpointRefreshMs(endpoint: EndpointDetail | undefined): number | false {
  if (!endpoint) return false;
  if (isTransitional(endpoint.status)) return pollMs;
  return endpoint.autoscaling ? autoscaledPollMs : false;
}

export function endpointPath(name: string): string {
  return `/api/endpoints/${encodeURIComponent(name)}`;
}

/** Polls only while some endpoint is Creating, Updating or Deleting. */
export function useEndpoints() {
  return useQuery({
    queryKey: ["endpoints"],
    queryFn: ({ signal }) => fetchJson<EndpointList>("/api/endpoints", { signal }),
    refetchInterval: (query) =>
      query.state.data?.endpoints.some((endpoint) => isTransitional(endpoint.status)) ? pollMs : false,
  });
}

export function useEndpoint(name: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    enabled: options.enabled ?? true,
    queryKey: ["endpoints", name],
    queryFn: ({ signal }) => fetchJson<EndpointDetail>(endpointPath(name), { signal }),
    refetchInterval: (query) => endpointRefreshMs(query.state.data),
  });
}

export function useDeploy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: DeployRequestInput) =>
      fetchJson<DeployResult>("/api/endpoints", { method: "POST", body: request }),
    onSuccess: () => client.invalidateQueries({ queryKey: ["endpoints"] }),
  });
}

export function useDeleteEndpoint(name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => fetchJson<DeleteResult>(endpointPath(name), { method: "DELETE" }),
    // Only the list: refetching the deleted endpoint itself would swap its page for a 404 before the redirect.
    onSuccess: () => client.invalidateQueries({ queryKey: ["endpoints"], exact: true }),
  });
}

export function useScaleEndpoint(name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (instanceCount: number) =>
      fetchJson<ScaleResult>(endpointPath(name), { method: "PATCH", body: { instanceCount } satisfies ScaleRequest }),
    onSuccess: () => client.invalidateQueries({ queryKey: ["endpoints"] }),
  });
}

export function useUpdateAutoscaling(name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: AutoscalingRequestInput) =>
      fetchJson<AutoscalingResponse>(`${endpointPath(name)}/autoscaling`, { method: "PUT", body: settings }),
    onSuccess: () => client.invalidateQueries({ queryKey: ["endpoints", name] }),
  });
}

export function useUpdateEndpoint(name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: UpdateRequestInput) =>
      fetchJson<UpdateResult>(`${endpointPath(name)}/update`, { method: "POST", body: request }),
    onSuccess: () => client.invalidateQueries({ queryKey: ["endpoints"] }),
  });
}

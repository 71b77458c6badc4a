"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AutoscalingRequestInput } from "@/contract/endpoints/autoscaling.ts";
import type { DeployRequestInput } from "@/contract/endpoints/deploy.ts";
import type { EndpointDetail } from "@/contract/endpoints/endpoint.ts";
import { isTransitional } from "@/contract/endpoints/status.ts";
import type { UpdateRequestInput } from "@/contract/endpoints/update.ts";
import { api } from "../api/console-client.ts";
import { queryKeys } from "../api/query-keys.ts";

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

/** Polls only while some endpoint is Creating, Updating or Deleting. */
export function useEndpoints() {
  return useQuery({
    queryKey: queryKeys.endpoints.all,
    queryFn: ({ signal }) => api("listEndpoints", { signal }),
    refetchInterval: (query) =>
      query.state.data?.endpoints.some((endpoint) => isTransitional(endpoint.status)) ? pollMs : false,
  });
}

export function useEndpoint(name: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    enabled: options.enabled ?? true,
    queryKey: queryKeys.endpoints.one(name),
    queryFn: ({ signal }) => api("describeEndpoint", { params: { name }, signal }),
    refetchInterval: (query) => endpointRefreshMs(query.state.data),
  });
}

export function useDeploy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: DeployRequestInput) => api("deploy", { body: request }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.endpoints.all }),
  });
}

export function useDeleteEndpoint(name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api("deleteEndpoint", { params: { name } }),
    // Only the list: refetching the deleted endpoint itself would swap its page for a 404 before the redirect.
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.endpoints.all, exact: true }),
  });
}

export function useScaleEndpoint(name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (instanceCount: number) => api("scaleEndpoint", { params: { name }, body: { instanceCount } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.endpoints.all }),
  });
}

export function useUpdateAutoscaling(name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: AutoscalingRequestInput) => api("putAutoscaling", { params: { name }, body: settings }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.endpoints.one(name) }),
  });
}

export function useUpdateEndpoint(name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: UpdateRequestInput) => api("updateEndpoint", { params: { name }, body: request }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.endpoints.all }),
  });
}

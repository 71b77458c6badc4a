"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "../api/console-client.ts";
import { queryKeys } from "../api/query-keys.ts";

export function useEndpointMetrics(name: string) {
  return useQuery({
    queryKey: queryKeys.endpoints.metrics(name),
    queryFn: ({ signal }) => api("endpointMetrics", { params: { name }, signal }),
    refetchInterval: 60_000,
  });
}

export function useEndpointInvocations(name: string) {
  return useQuery({
    queryKey: queryKeys.endpoints.invocations(name),
    queryFn: ({ signal }) => api("invocations", { params: { name }, signal }),
  });
}

/** The endpoint's recent log lines in the last `minutes`, matching `filterPattern` (CloudWatch syntax). */
export function useEndpointLogs(name: string, minutes: number, filterPattern: string) {
  return useQuery({
    queryKey: queryKeys.endpoints.logs(name, minutes, filterPattern),
    queryFn: ({ signal }) => api("endpointLogs", { params: { name }, query: { minutes, filterPattern }, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
}

/** The asynchronous requests this console sent, polled while any is still queued (each listing asks S3 about them). */
export function useAsyncRequests(name: string) {
  return useQuery({
    queryKey: queryKeys.endpoints.asyncRequests(name),
    queryFn: ({ signal }) => api("asyncRequests", { params: { name }, signal }),
    refetchInterval: (query) =>
      query.state.data?.requests.some((request) => request.state === "queued") ? 5_000 : 30_000,
  });
}

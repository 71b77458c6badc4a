"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "../api/console-client.ts";
import { queryKeys } from "../api/query-keys.ts";

/** The endpoint's metrics over a window (its StartTime and Period in the CloudWatch query), looked up each minute. */
export function metricsQuery(name: string, range: { minutes: number; periodSeconds: number }) {
  const { minutes, periodSeconds } = range;
  return {
    queryKey: queryKeys.endpoints.metrics(name, minutes, periodSeconds),
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      api("endpointMetrics", { params: { name }, query: { minutes, periodSeconds }, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  };
}

export function useEndpointMetrics(
  name: string,
  range: { minutes: number; periodSeconds: number },
  options: { enabled?: boolean } = {},
) {
  return useQuery({ ...metricsQuery(name, range), enabled: options.enabled ?? true });
}

/** How often the live views of an endpoint's activity (its invocations, its log lines) look again. */
export const activityRefreshMs = 10_000;

/** The invocations this console made, newest first, looked up again while the page is open (a canary's traffic). */
export function invocationsQuery(name: string) {
  return {
    queryKey: queryKeys.endpoints.invocations(name),
    queryFn: ({ signal }: { signal: AbortSignal }) => api("invocations", { params: { name }, signal }),
    refetchInterval: activityRefreshMs,
  };
}

export function useEndpointInvocations(name: string) {
  return useQuery(invocationsQuery(name));
}

/** The endpoint's recent log lines in the last `minutes`, matching `filterPattern` (CloudWatch syntax), tailed. */
export function logsQuery(name: string, minutes: number, filterPattern: string) {
  return {
    queryKey: queryKeys.endpoints.logs(name, minutes, filterPattern),
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      api("endpointLogs", { params: { name }, query: { minutes, filterPattern }, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: activityRefreshMs,
  };
}

export function useEndpointLogs(name: string, minutes: number, filterPattern: string) {
  return useQuery(logsQuery(name, minutes, filterPattern));
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

/** The alarms the console created for the endpoint, their states and state changes, looked up twice a minute. */
export function useEndpointAlarms(name: string) {
  return useQuery({
    queryKey: queryKeys.endpoints.alarms(name),
    queryFn: ({ signal }) => api("endpointAlarms", { params: { name }, signal }),
    refetchInterval: 30_000,
  });
}

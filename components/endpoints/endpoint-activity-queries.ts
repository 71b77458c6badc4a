"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { EndpointLogs } from "@/contract/endpoints/logs.ts";
import type { EndpointMetricsResponse } from "@/contract/endpoints/metrics.ts";
import type { InvocationList } from "@/contract/invoke/invoke.ts";
import type { AsyncRequestList } from "@/contract/invoke/invoke-async.ts";
import { fetchJson } from "../api/fetch-json.ts";
import { endpointPath } from "./endpoint-queries.ts";

export function useEndpointMetrics(name: string) {
  return useQuery({
    queryKey: ["endpoints", name, "metrics"],
    queryFn: ({ signal }) => fetchJson<EndpointMetricsResponse>(`${endpointPath(name)}/metrics`, { signal }),
    refetchInterval: 60_000,
  });
}

export function useEndpointInvocations(name: string) {
  return useQuery({
    queryKey: ["endpoints", name, "invocations"],
    queryFn: ({ signal }) => fetchJson<InvocationList>(`${endpointPath(name)}/invocations`, { signal }),
  });
}

/** The endpoint's recent log lines in the last `minutes`, matching `filterPattern` (CloudWatch syntax). */
export function useEndpointLogs(name: string, minutes: number, filterPattern: string) {
  const query = new URLSearchParams({ minutes: String(minutes) });
  if (filterPattern) query.set("filterPattern", filterPattern);
  return useQuery({
    queryKey: ["endpoints", name, "logs", minutes, filterPattern],
    queryFn: ({ signal }) => fetchJson<EndpointLogs>(`${endpointPath(name)}/logs?${query}`, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
}

/** The asynchronous requests this console sent, polled while any is still queued (each listing asks S3 about them). */
export function useAsyncRequests(name: string) {
  return useQuery({
    queryKey: ["endpoints", name, "async-requests"],
    queryFn: ({ signal }) => fetchJson<AsyncRequestList>(`${endpointPath(name)}/async-requests`, { signal }),
    refetchInterval: (query) =>
      query.state.data?.requests.some((request) => request.state === "queued") ? 5_000 : 30_000,
  });
}

"use client";

import { useQuery } from "@tanstack/react-query";
import { fetchJson } from "../api/fetch-json.ts";
import type { ChartPoint } from "../charts/line-chart.tsx";
import { endpointPath } from "./endpoint-queries.ts";

export type MetricSeries = { metric: string; label?: string; unit: string; points: ChartPoint[] };
export type EndpointMetrics = { series: MetricSeries[] };

export type Invocation = {
  id: string;
  createdAt: string;
  requestKind: string;
  statusCode: number;
  latencyMs: number;
  retries?: number;
  errorMessage?: string | null;
};

export function useEndpointMetrics(name: string) {
  return useQuery({
    queryKey: ["endpoints", name, "metrics"],
    queryFn: ({ signal }) => fetchJson<EndpointMetrics>(`${endpointPath(name)}/metrics`, { signal }),
    refetchInterval: 60_000,
  });
}

export function useEndpointInvocations(name: string) {
  return useQuery({
    queryKey: ["endpoints", name, "invocations"],
    queryFn: ({ signal }) => fetchJson<{ invocations: Invocation[] }>(`${endpointPath(name)}/invocations`, { signal }),
  });
}

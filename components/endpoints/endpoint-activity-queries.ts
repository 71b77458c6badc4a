"use client";

import { useQuery } from "@tanstack/react-query";
import type { EndpointMetrics } from "@/contract/endpoints/metrics.ts";
import type { InvocationList } from "@/contract/invoke/invoke.ts";
import { fetchJson } from "../api/fetch-json.ts";
import { endpointPath } from "./endpoint-queries.ts";

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
    queryFn: ({ signal }) => fetchJson<InvocationList>(`${endpointPath(name)}/invocations`, { signal }),
  });
}

"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { MonitoringWindow } from "@/contract/endpoints/monitoring.ts";
import { api } from "../api/console-client.ts";
import { queryKeys } from "../api/query-keys.ts";

/** How often the view looks for new capture objects; at once again while a look left some unread. */
const refreshMs = 15_000;

export function useEndpointMonitoring(
  name: string,
  view: { window: MonitoringWindow; threshold: number; variant: string | null },
) {
  return useQuery({
    queryKey: queryKeys.endpoints.monitoring(name, view.window, view.threshold, view.variant),
    queryFn: ({ signal }) =>
      api("endpointMonitoring", {
        params: { name },
        query: { window: view.window, threshold: view.threshold, ...(view.variant ? { variant: view.variant } : {}) },
        signal,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.source.moreToRead ? 500 : refreshMs),
  });
}

"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./console-client.ts";
import { queryKeys } from "./query-keys.ts";

/** The console's deployment settings; they change only with a restart, so they are read once per page load. */
export function useConsoleSettings() {
  return useQuery({
    queryKey: queryKeys.settings,
    queryFn: ({ signal }) => api("consoleSettings", { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

"use client";

import { useQuery } from "@tanstack/react-query";
import type { ConsoleSettingsView } from "@/contract/settings/settings.ts";
import { fetchJson } from "./fetch-json.ts";

/** The console's deployment settings; they change only with a restart, so they are read once per page load. */
export function useConsoleSettings() {
  return useQuery({
    queryKey: ["settings"],
    queryFn: ({ signal }) => fetchJson<ConsoleSettingsView>("/api/settings", { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AuditRecord } from "@/server/audit/record.ts";
import type { Principal } from "@/server/auth/principal.ts";
import { fetchJson } from "../api/fetch-json.ts";

export interface Me {
  user: Principal | null;
  mode: "local" | "users";
  singleSignOn: boolean;
}

export function useMe() {
  return useQuery({ queryKey: ["auth", "me"], queryFn: ({ signal }) => fetchJson<Me>("/api/auth/me", { signal }) });
}

export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (credentials: { name: string; password: string }) =>
      fetchJson<{ user: Principal }>("/api/auth/login", { method: "POST", body: credentials }),
    onSuccess: () => client.invalidateQueries({ queryKey: ["auth"] }),
  });
}

export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => fetchJson<{ user: null }>("/api/auth/logout", { method: "POST" }),
    onSuccess: () => client.clear(),
  });
}

export interface AuditPage {
  records: AuditRecord[];
  nextBefore: number | null;
}

export function useAuditLog(before: number | undefined) {
  return useQuery({
    queryKey: ["audit", before ?? "newest"],
    queryFn: ({ signal }) =>
      fetchJson<AuditPage>(`/api/audit?limit=100${before ? `&before=${before}` : ""}`, { signal }),
  });
}

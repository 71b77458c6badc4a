"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AuditPage } from "@/contract/audit/audit.ts";
import type { LoginRequest, LoginResponse, LogoutResponse, MeResponse } from "@/contract/auth/session.ts";
import { fetchJson } from "../api/fetch-json.ts";

export function useMe() {
  return useQuery({
    queryKey: ["auth", "me"],
    queryFn: ({ signal }) => fetchJson<MeResponse>("/api/auth/me", { signal }),
  });
}

export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (credentials: LoginRequest) =>
      fetchJson<LoginResponse>("/api/auth/login", { method: "POST", body: credentials }),
    onSuccess: () => client.invalidateQueries({ queryKey: ["auth"] }),
  });
}

export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => fetchJson<LogoutResponse>("/api/auth/logout", { method: "POST" }),
    onSuccess: () => client.clear(),
  });
}

export function useAuditLog(before: number | undefined) {
  return useQuery({
    queryKey: ["audit", before ?? "newest"],
    queryFn: ({ signal }) =>
      fetchJson<AuditPage>(`/api/audit?limit=100${before ? `&before=${before}` : ""}`, { signal }),
  });
}

"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { LoginRequest } from "@/contract/auth/session.ts";
import { api } from "../api/console-client.ts";
import { queryKeys } from "../api/query-keys.ts";

export function useMe() {
  return useQuery({
    queryKey: queryKeys.auth.me,
    queryFn: ({ signal }) => api("me", { signal }),
  });
}

export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (credentials: LoginRequest) => api("login", { body: credentials }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.auth.all }),
  });
}

export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api("logout"),
    onSuccess: () => client.clear(),
  });
}

export function useAuditLog(before: number | undefined) {
  return useQuery({
    queryKey: queryKeys.audit(before),
    queryFn: ({ signal }) => api("audit", { query: { limit: 100, before }, signal }),
  });
}

"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CreateGatewayKey } from "@/contract/gateway/keys.ts";
import { api } from "../api/console-client.ts";
import { queryKeys } from "../api/query-keys.ts";

export function useGatewayKeys() {
  return useQuery({
    queryKey: queryKeys.gatewayKeys,
    queryFn: ({ signal }) => api("listGatewayKeys", { signal }),
  });
}

export function useCreateGatewayKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (key: CreateGatewayKey) => api("createGatewayKey", { body: key }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.gatewayKeys }),
  });
}

export function useRevokeGatewayKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api("revokeGatewayKey", { params: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.gatewayKeys }),
  });
}

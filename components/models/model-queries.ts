"use client";

import { useMutation, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ApprovalRequest, ModelVersion, RegisterVersionInput } from "@/contract/models/model-registry.ts";
import { api } from "../api/console-client.ts";
import { queryKeys } from "../api/query-keys.ts";

/** A version's page in the console. */
export function versionPage(group: string, version: number): string {
  return `/models/${encodeURIComponent(group)}/${version}`;
}

export function groupPage(group: string): string {
  return `/models/${encodeURIComponent(group)}`;
}

export function useModelGroups() {
  return useQuery({ queryKey: queryKeys.models.all, queryFn: ({ signal }) => api("listModelGroups", { signal }) });
}

export function useModelGroup(group: string) {
  return useQuery({
    queryKey: queryKeys.models.group(group),
    queryFn: ({ signal }) => api("getModelGroup", { params: { group }, signal }),
  });
}

export function useModelVersion(group: string, version: number, enabled = true) {
  return useQuery({
    queryKey: queryKeys.models.version(group, version),
    queryFn: ({ signal }) => api("getModelVersion", { params: { group, version: String(version) }, signal }),
    enabled,
  });
}

/** Every Approved version of every group this console manages, newest first: what a deployment may pick. */
export function useApprovedVersions(): { versions: ModelVersion[]; isPending: boolean; error: Error | null } {
  const groups = useModelGroups();
  const details = useQueries({
    queries: (groups.data?.groups ?? []).map((group) => ({
      queryKey: queryKeys.models.group(group.name),
      queryFn: ({ signal }: { signal: AbortSignal }) => api("getModelGroup", { params: { group: group.name }, signal }),
    })),
  });
  const versions = details
    .flatMap((detail) => detail.data?.versions ?? [])
    .filter((version) => version.status === "Approved")
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return {
    versions,
    isPending: groups.isPending || details.some((detail) => detail.isPending),
    error: groups.error ?? details.find((detail) => detail.error)?.error ?? null,
  };
}

export function useRegisterVersion() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: RegisterVersionInput) => api("registerModelVersion", { body: request }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.models.all }),
  });
}

export function useAttachEvaluation(group: string, version: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (evaluationId: string) =>
      api("attachModelEvaluation", { params: { group, version: String(version) }, body: { evaluationId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.models.group(group) }),
  });
}

export function useDecideApproval(group: string, version: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (decision: ApprovalRequest) =>
      api("decideModelApproval", { params: { group, version: String(version) }, body: decision }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.models.group(group) }),
  });
}

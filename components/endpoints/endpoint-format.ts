import type { EndpointStatus } from "@/server/endpoints/dto.ts";
import type { Tone } from "../ui/badge.tsx";

/** Mirrors `transitionalStatuses` of the DTO module without bundling zod into the browser. */
const transitional = new Set<EndpointStatus>(["Creating", "Updating", "SystemUpdating", "RollingBack", "Deleting"]);

export function isTransitional(status: EndpointStatus): boolean {
  return transitional.has(status);
}

/** SageMaker refuses to delete or scale while these are in progress. */
export function blocksChanges(status: EndpointStatus): boolean {
  return status === "Creating" || status === "Updating" || status === "SystemUpdating" || status === "RollingBack";
}

export function statusTone(status: EndpointStatus): Tone {
  if (status === "InService") return "success";
  if (status === "Failed" || status === "UpdateRollbackFailed" || status === "OutOfService") return "danger";
  if (isTransitional(status)) return "warning";
  return "neutral";
}

/** `sha256:abcdef123456` from any digest-bearing string (image URI or bare digest). */
export function shortDigest(value: string | null): string {
  if (!value) return "—";
  const hex = value.slice(value.lastIndexOf("sha256:") + "sha256:".length);
  return value.includes("sha256:") ? `sha256:${hex.slice(0, 12)}` : value.slice(0, 19);
}

export function shortSha(value: string | null): string {
  return value ? value.slice(0, 12) : "—";
}

export function age(iso: string, now: number = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h`;
  return `${Math.floor(hours / 24)}d`;
}

export function hourlyPrice(value: number | null): string {
  return value === null ? "—" : `$${value.toFixed(value < 1 ? 4 : 2)}`;
}

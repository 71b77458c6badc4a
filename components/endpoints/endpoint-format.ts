import { type EndpointStatus, isFailed, isTransitional } from "@/contract/endpoints/status.ts";
import type { Tone } from "../ui/badge.tsx";

export function statusTone(status: EndpointStatus): Tone {
  if (status === "InService") return "success";
  if (isFailed(status)) return "danger";
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

/** USD per 1,000 decisions; cents matter here, so small values keep four decimals as prices do. */
export const costPerThousand = hourlyPrice;

import type { TransformJobStatus } from "@/contract/batch/transform-jobs.ts";
import type { Tone } from "../ui/badge.tsx";

export function jobTone(status: TransformJobStatus): Tone {
  if (status === "Completed") return "success";
  if (status === "Failed") return "danger";
  if (status === "InProgress") return "info";
  return "warning";
}

export function seconds(value: number | null): string {
  if (value === null) return "—";
  if (value < 120) return `${value} s`;
  return `${Math.floor(value / 60)} min ${value % 60} s`;
}

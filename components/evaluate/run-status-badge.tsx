import type { RunStatus } from "@/contract/evaluate/evaluations.ts";
import { Badge, type Tone } from "../ui/badge.tsx";

const tones: Record<RunStatus, Tone> = {
  running: "info",
  completed: "success",
  cancelled: "warning",
  failed: "danger",
};

export function RunStatusBadge({ status }: { status: RunStatus }) {
  return <Badge tone={tones[status]}>{status}</Badge>;
}

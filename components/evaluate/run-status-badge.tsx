import type { RunStatus } from "@/server/evaluate/runs/run-store.ts";
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

import type { RunOutcome } from "@/contract/evaluate/evaluations.ts";
import { Badge, type Tone } from "../ui/badge.tsx";

const tones: Record<RunOutcome, Tone> = {
  running: "info",
  completed: "success",
  completed_with_failures: "warning",
  cancelled: "warning",
  failed: "danger",
};

/** How the run ended; one whose items got no answer reads "completed with failures", never plain "completed". */
export function RunStatusBadge({ outcome }: { outcome: RunOutcome }) {
  return <Badge tone={tones[outcome]}>{outcome.replaceAll("_", " ")}</Badge>;
}

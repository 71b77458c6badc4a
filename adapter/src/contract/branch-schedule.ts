/**
 * ADAPTER_BRANCH_SCHEDULE: how a request with several branches after one prefix (shared decisions, option orders,
 * systemone questions) evaluates them.
 * - `serial`: one after another on the request's own sequence, each keeping what it shares with the one before
 *   (the CPU default). On a CPU a forward pass costs the same per token at 100 tokens as at 400, so batching the
 *   suffixes saves nothing, while each lane costs a copy of a whole KV stream and the lanes' unequal suffixes
 *   split the batch (measured: adapter README, "Shared requests on a CPU").
 * - `batched`: spread over idle sequences (lanes) in one batch, each lane copying the prefix's state (the CUDA
 *   default, provisional: no GPU has measured it).
 */
export const BRANCH_SCHEDULES = ["serial", "batched"] as const;
export type BranchSchedule = (typeof BRANCH_SCHEDULES)[number];

export function defaultBranchSchedule(backend: "cpu" | "cuda"): BranchSchedule {
  return backend === "cuda" ? "batched" : "serial";
}

export function readBranchSchedule(raw: string | undefined, backend: "cpu" | "cuda"): BranchSchedule {
  if (raw === undefined || raw === "") return defaultBranchSchedule(backend);
  if ((BRANCH_SCHEDULES as readonly string[]).includes(raw)) return raw as BranchSchedule;
  throw new Error(`ADAPTER_BRANCH_SCHEDULE must be "serial" or "batched", got "${raw}"`);
}

import type { Timing } from "../contract/common.ts";
import type { BranchScores } from "./branch-scoring.ts";
import type { ReadingCache } from "./reading-cache.ts";

type ReuseTiming = Pick<
  Timing,
  "reused_tokens" | "copied_tokens" | "evaluated_tokens" | "lanes" | "cache_hits" | "cache_entries"
>;

/** The `timing` fields that say where a request's tokens came from. */
export function reuseTiming(scores: Omit<BranchScores, "branches">, cache: ReadingCache<unknown> | null): ReuseTiming {
  return {
    reused_tokens: scores.reusedTokens,
    copied_tokens: scores.copiedTokens,
    evaluated_tokens: scores.evaluatedTokens,
    lanes: scores.lanes,
    cache_hits: scores.cacheHits,
    cache_entries: cache?.size ?? 0,
  };
}

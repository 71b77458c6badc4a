/**
 * ADAPTER_PARALLEL when it is not set: context sequences per backend. Each sequence holds a full SEMIF_MAX_TOKENS
 * of KV cache, serves one request at a time, and lends itself as a lane to a request scoring several branches
 * (shared decisions, option orders, questions) in one batch. Figures behind the choice: adapter README,
 * "ADAPTER_PARALLEL".
 */
export const DEFAULT_PARALLEL = {
  /** Measured on the 2-core CPU machine (adapter README). */
  cpu: 4,
  /** Provisional: no GPU machine was available to measure it; 8 lanes score SEMIF_MAX_SHARED_DECISIONS in one batch. */
  cuda: 8,
} as const;

export function defaultParallel(backend: keyof typeof DEFAULT_PARALLEL): number {
  return DEFAULT_PARALLEL[backend];
}

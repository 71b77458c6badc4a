/**
 * ADAPTER_PARALLEL when it is not set: context sequences per backend. Each sequence holds a full SEMIF_MAX_TOKENS
 * of KV cache, serves one request at a time, and lends itself as a lane to a request scoring several branches
 * (shared decisions, option orders, questions) in one batch. Figures behind the choice: adapter README,
 * "ADAPTER_PARALLEL".
 */
export const DEFAULT_PARALLEL = {
  /**
   * Measured on the 2-core CPU machine (adapter README): 8 decisions on one state took 22-23 s with 8 lanes, 28-30 s
   * with 4, 33-35 s with 2 and 30-50 s serially at 1 thread; 9.6-9.7 / 10.2-10.4 / 10.4-10.8 / 10.4-12.2 s at 2.
   */
  cpu: 8,
  /** Provisional: no GPU machine was available to measure it; 8 lanes score SEMIF_MAX_SHARED_DECISIONS in one batch. */
  cuda: 8,
} as const;

export function defaultParallel(backend: keyof typeof DEFAULT_PARALLEL): number {
  return DEFAULT_PARALLEL[backend];
}

/**
 * bench:peer's verdict on shared requests. The target (issue "Shared-state requests are slower than sending the same
 * decisions one by one"): a request of several decisions on one state costs at most SHARED_TARGET times what
 * llama-server takes for the same decisions sent one after another with `cache_prompt`, in every cell.
 */
export const SHARED_TARGET = 0.95;
const SHARED_CELL = / decisions on one ~\d+-token state: shared request vs /;

/** One line saying whether every shared cell meets SHARED_TARGET, naming the worst and any that miss it. */
export function sharedVerdict(rows: ReadonlyArray<{ cell: string; ratio: number }>) {
  const shared = rows.filter((row) => SHARED_CELL.test(row.cell));
  const missed = shared.filter((row) => row.ratio > SHARED_TARGET);
  const worst = shared.reduce<(typeof shared)[number] | null>((a, b) => (a && a.ratio >= b.ratio ? a : b), null);
  const line =
    shared.length === 0
      ? "verdict: no shared cell was measured"
      : missed.length === 0
        ? `verdict: PASS, every shared cell (${shared.length}) at most ${SHARED_TARGET} x llama-server's sequential cached requests (worst ${worst!.ratio}: ${worst!.cell})`
        : `verdict: FAIL, ${missed.length} of ${shared.length} shared cells above ${SHARED_TARGET}: ${missed.map((row) => `${row.ratio} (${row.cell})`).join("; ")}`;
  return { target: SHARED_TARGET, cells: shared.length, missed: missed.length, worst: worst?.ratio ?? null, line };
}

/**
 * bench:peer's verdict on shared requests (issue "A shared request is never slower than the same decisions one by
 * one"): a request of several decisions on one state costs at most the target times what llama-server takes for the
 * same decisions sent one after another with `cache_prompt`, in every cell; and one more decision on that state
 * after it (warm) costs at most what llama-server's warm request does. On a CPU both do the state once and each
 * suffix once, so the target is parity (1.00); on a GPU, where one batch of all suffixes uses the hardware far
 * better than sequential passes, it is 0.5. A warm decision is one decision on either device: parity.
 */
export const SHARED_TARGETS = { cpu: 1, gpu: 0.5 } as const;
export const WARM_TARGET = 1;
const SHARED_CELL = / decisions on one ~\d+-token state: shared request vs /;
const WARM_CELL = /^one more decision on that ~\d+-token state \(warm\), after \d+$/;

type Rated = { cell: string; ratio: number };

const worstOf = <T extends Rated>(rows: readonly T[]) =>
  rows.reduce<T | null>((a, b) => (a && a.ratio >= b.ratio ? a : b), null);

/** One line saying whether every shared cell and every warm cell meets its target, naming the worst and any miss. */
export function sharedVerdict(rows: readonly Rated[], device: keyof typeof SHARED_TARGETS = "cpu") {
  const target = SHARED_TARGETS[device];
  const shared = rows.filter((row) => SHARED_CELL.test(row.cell));
  const warm = rows.filter((row) => WARM_CELL.test(row.cell));
  const missed = [...shared.filter((row) => row.ratio > target), ...warm.filter((row) => row.ratio > WARM_TARGET)];
  const worst = worstOf(shared);
  const worstWarm = worstOf(warm);
  const against = `${target.toFixed(2)} (${device.toUpperCase()} target)`;
  const warmPart = worstWarm
    ? `, and every warm decision after one (${warm.length}) at most ${WARM_TARGET.toFixed(2)} (worst ${worstWarm.ratio}: ${worstWarm.cell})`
    : "";
  const line =
    shared.length === 0
      ? "verdict: no shared cell was measured"
      : missed.length === 0
        ? `verdict: PASS, every shared cell (${shared.length}) at most ${against} x llama-server's sequential cached requests (worst ${worst!.ratio}: ${worst!.cell})${warmPart}`
        : `verdict: FAIL, ${missed.length} of ${shared.length + warm.length} shared and warm cells above their target (shared ${against}, warm ${WARM_TARGET.toFixed(2)}): ${missed.map((row) => `${row.ratio} (${row.cell})`).join("; ")}`;
  return {
    device,
    target,
    cells: shared.length,
    warmCells: warm.length,
    missed: missed.length,
    worst: worst?.ratio ?? null,
    worstWarm: worstWarm?.ratio ?? null,
    line,
  };
}

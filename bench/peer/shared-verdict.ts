/**
 * bench:peer's verdict on shared requests (issue "A shared request is never slower than the same decisions one by
 * one"): a request of several decisions on one state costs at most the target times what llama-server takes for the
 * same decisions sent one after another with `cache_prompt`, in every cell. On a CPU both do the state once and each
 * suffix once, so the target is parity (1.00); on a GPU, where one batch of all suffixes uses the hardware far
 * better than sequential passes, it is 0.5.
 */
export const SHARED_TARGETS = { cpu: 1, gpu: 0.5 } as const;
const SHARED_CELL = / decisions on one ~\d+-token state: shared request vs /;

/** One line saying whether every shared cell meets the target, naming the worst and any that miss it. */
export function sharedVerdict(
  rows: ReadonlyArray<{ cell: string; ratio: number }>,
  device: keyof typeof SHARED_TARGETS = "cpu",
) {
  const target = SHARED_TARGETS[device];
  const shared = rows.filter((row) => SHARED_CELL.test(row.cell));
  const missed = shared.filter((row) => row.ratio > target);
  const worst = shared.reduce<(typeof shared)[number] | null>((a, b) => (a && a.ratio >= b.ratio ? a : b), null);
  const against = `${target.toFixed(2)} (${device.toUpperCase()} target)`;
  const line =
    shared.length === 0
      ? "verdict: no shared cell was measured"
      : missed.length === 0
        ? `verdict: PASS, every shared cell (${shared.length}) at most ${against} x llama-server's sequential cached requests (worst ${worst!.ratio}: ${worst!.cell})`
        : `verdict: FAIL, ${missed.length} of ${shared.length} shared cells above ${against}: ${missed.map((row) => `${row.ratio} (${row.cell})`).join("; ")}`;
  return { device, target, cells: shared.length, missed: missed.length, worst: worst?.ratio ?? null, line };
}

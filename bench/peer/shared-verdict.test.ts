import { describe, expect, it } from "vitest";
import { sharedVerdict } from "./shared-verdict.ts";

const cell = (count: number, state: number, ratio: number) => ({
  cell: `${count} decisions on one ~${state}-token state: shared request vs ${count} sequential cached`,
  ratio,
});
const warm = (count: number, state: number, ratio: number) => ({
  cell: `one more decision on that ~${state}-token state (warm), after ${count}`,
  ratio,
});

describe("bench:peer's verdict on shared requests", () => {
  it("passes on a CPU only when every shared and warm cell is at most 1.00, and names the worst of each", () => {
    const rows = [
      { cell: "one decision, ~500 tokens, llama-server with cache_prompt", ratio: 1.4 },
      { cell: "exact repeat of that request (~500, after 2)", ratio: 1.2 },
      cell(2, 500, 0.97),
      warm(2, 500, 0.99),
      cell(8, 1500, 1),
      warm(8, 1500, 1),
    ];
    const verdict = sharedVerdict(rows);
    expect(verdict).toMatchObject({ device: "cpu", target: 1, cells: 2, warmCells: 2, missed: 0, worst: 1 });
    expect(verdict.line).toMatch(
      /^verdict: PASS, every shared cell \(2\) at most 1\.00 \(CPU target\) .*worst 1: 8 decisions on one ~1500.*, and every warm decision after one \(2\) at most 1\.00 \(worst 1: one more decision on that ~1500/,
    );
  });

  it("fails naming each cell above the CPU target (the issue's figures), warm ones included", () => {
    const verdict = sharedVerdict([
      cell(4, 500, 1.06),
      cell(8, 500, 0.96),
      cell(4, 1500, 1.001),
      warm(8, 500, 1.078),
      warm(4, 500, 0.963),
    ]);
    expect(verdict).toMatchObject({ cells: 3, warmCells: 2, missed: 3, worst: 1.06, worstWarm: 1.078 });
    expect(verdict.line).toContain("verdict: FAIL, 3 of 5 shared and warm cells above their target");
    expect(verdict.line).toContain(": 1.06 (4 decisions");
    expect(verdict.line).toContain("; 1.001 (4 decisions on one ~1500-token state");
    expect(verdict.line).toContain("; 1.078 (one more decision on that ~500-token state (warm), after 8)");
    expect(sharedVerdict([]).line).toBe("verdict: no shared cell was measured");
  });

  it("holds a GPU run's shared cells to 0.5 and its warm decisions to parity", () => {
    const rows = [cell(4, 500, 0.45), cell(8, 1500, 0.62), warm(8, 1500, 0.9)];
    const verdict = sharedVerdict(rows, "gpu");
    expect(verdict).toMatchObject({ device: "gpu", target: 0.5, missed: 1, worst: 0.62 });
    expect(verdict.line).toBe(
      "verdict: FAIL, 1 of 3 shared and warm cells above their target (shared 0.50 (GPU target), warm 1.00): 0.62 (8 decisions on one ~1500-token state: shared request vs 8 sequential cached)",
    );
    expect(sharedVerdict([cell(4, 500, 0.5), warm(4, 500, 1)], "gpu").line).toMatch(
      /^verdict: PASS, every shared cell \(1\) at most 0\.50/,
    );
  });
});

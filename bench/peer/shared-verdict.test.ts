import { describe, expect, it } from "vitest";
import { sharedVerdict } from "./shared-verdict.ts";

const cell = (count: number, state: number, ratio: number) => ({
  cell: `${count} decisions on one ~${state}-token state: shared request vs ${count} sequential cached`,
  ratio,
});

describe("bench:peer's verdict on shared requests", () => {
  it("passes on a CPU only when every shared cell is at most 1.00, and names the worst", () => {
    const rows = [
      { cell: "one decision, ~500 tokens, llama-server with cache_prompt", ratio: 1.4 },
      cell(2, 500, 0.97),
      cell(8, 1500, 1),
    ];
    const verdict = sharedVerdict(rows);
    expect(verdict).toMatchObject({ device: "cpu", target: 1, cells: 2, missed: 0, worst: 1 });
    expect(verdict.line).toMatch(
      /^verdict: PASS, every shared cell \(2\) at most 1\.00 \(CPU target\) .*worst 1: 8 decisions on one ~1500/,
    );
  });

  it("fails naming each cell above the CPU target (the issue's figures)", () => {
    const verdict = sharedVerdict([cell(4, 500, 1.06), cell(8, 500, 0.96), cell(4, 1500, 1.001)]);
    expect(verdict).toMatchObject({ cells: 3, missed: 2, worst: 1.06 });
    expect(verdict.line).toContain("verdict: FAIL, 2 of 3 shared cells above 1.00 (CPU target): 1.06 (4 decisions");
    expect(verdict.line).toContain("; 1.001 (4 decisions on one ~1500-token state");
    expect(sharedVerdict([]).line).toBe("verdict: no shared cell was measured");
  });

  it("holds a GPU run to 0.5", () => {
    const rows = [cell(4, 500, 0.45), cell(8, 1500, 0.62)];
    const verdict = sharedVerdict(rows, "gpu");
    expect(verdict).toMatchObject({ device: "gpu", target: 0.5, missed: 1, worst: 0.62 });
    expect(verdict.line).toBe(
      "verdict: FAIL, 1 of 2 shared cells above 0.50 (GPU target): 0.62 (8 decisions on one ~1500-token state: shared request vs 8 sequential cached)",
    );
    expect(sharedVerdict([cell(4, 500, 0.5)], "gpu").line).toMatch(
      /^verdict: PASS, every shared cell \(1\) at most 0\.50/,
    );
  });
});

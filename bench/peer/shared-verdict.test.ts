import { describe, expect, it } from "vitest";
import { sharedVerdict } from "./shared-verdict.ts";

const cell = (count: number, state: number, ratio: number) => ({
  cell: `${count} decisions on one ~${state}-token state: shared request vs ${count} sequential cached`,
  ratio,
});

describe("bench:peer's verdict on shared requests", () => {
  it("passes only when every shared cell is at most 0.95, and names the worst", () => {
    const rows = [
      { cell: "one decision, ~500 tokens, llama-server with cache_prompt", ratio: 1.4 },
      cell(4, 500, 0.91),
      cell(8, 1500, 0.95),
    ];
    const verdict = sharedVerdict(rows);
    expect(verdict).toMatchObject({ cells: 2, missed: 0, worst: 0.95 });
    expect(verdict.line).toMatch(/^verdict: PASS, every shared cell \(2\) .*worst 0\.95: 8 decisions on one ~1500/);
  });

  it("fails naming each cell above the target (the issue's figures)", () => {
    const verdict = sharedVerdict([cell(4, 500, 1.26), cell(8, 500, 1.2), cell(4, 1500, 0.94)]);
    expect(verdict).toMatchObject({ cells: 3, missed: 2, worst: 1.26 });
    expect(verdict.line).toContain("verdict: FAIL, 2 of 3 shared cells above 0.95: 1.26 (4 decisions");
    expect(sharedVerdict([]).line).toBe("verdict: no shared cell was measured");
  });
});

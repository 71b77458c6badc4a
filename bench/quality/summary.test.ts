import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { benchOut } from "../../adapter/bench/bench-files.ts";
import { type QualityReport, summaryDifferences } from "./check.ts";
import type { QualityItem } from "./run.ts";
import { type QualityVariant, qualitySummary, variantSummary } from "./summary.ts";

function item(id: string, label: string, probabilities: number[] | null, tier = "easy"): QualityItem {
  const ids = probabilities ? probabilities.map((_, index) => `o${index}`) : ["o0", "o1"];
  return {
    id,
    label,
    option_ids: ids,
    probabilities,
    option_logits: probabilities ? probabilities.map((p) => Math.log(p) + 3) : null,
    spread: null,
    input_tokens: probabilities ? 100 : null,
    type: "choice",
    tier,
    category: null,
    error: probabilities ? null : { status: 422, message: "too long" },
  };
}

const chat: QualityVariant = {
  name: "chat template",
  template: "auto",
  permutations: 1,
  items: [
    item("a", "o0", [0.7, 0.2, 0.1]),
    item("b", "o1", [0.6, 0.4]),
    item("c", "o1", [0.1, 0.9], "hard"),
    item("d", "o0", null, "hard"),
  ],
};
const debiased: QualityVariant = {
  ...chat,
  name: "chat template, debiased",
  permutations: "all",
  items: [
    item("a", "o0", [0.5, 0.3, 0.2]),
    item("b", "o1", [0.45, 0.55]),
    item("c", "o1", [0.2, 0.8], "hard"),
    item("d", "o0", null, "hard"),
  ],
};

describe("bench:quality summary", () => {
  it("scores refused items as wrong and takes chance as the mean of 1/options", () => {
    const summary = variantSummary(chat);
    expect(summary.accuracy).toEqual({ correct: 2, total: 4, accuracy: 0.5 });
    expect(summary.refused).toBe(1);
    expect(summary.chance).toBeCloseTo((1 / 3 + 1 / 2 + 1 / 2 + 1 / 2) / 4, 12);
    expect(summary.strata.map((s) => [s.stratum, s.correct, s.total])).toEqual([
      ["choice/easy", 1, 2],
      ["choice/hard", 1, 2],
    ]);
    expect(summary.coverageAt[0]).toEqual({ threshold: 0.5, coverage: 1, accuracy: 2 / 3, covered: 3 });
  });

  it("measures how far debiasing moved each answer", () => {
    const [shift] = qualitySummary([chat, debiased]).shifts;
    expect(shift).toMatchObject({ what: "debiasing (chat template)", compared: 3, choicesChanged: 1 });
    expect(shift!.maxMove).toBeCloseTo(0.2, 12);
  });

  it("finds a summary that its items do not give", () => {
    const report: QualityReport = { variants: [chat, debiased], summary: qualitySummary([chat, debiased]) };
    expect(summaryDifferences(JSON.parse(JSON.stringify(report)))).toEqual([]);
    const tampered = JSON.parse(JSON.stringify(report)) as QualityReport;
    tampered.variants[1]!.items[0]!.probabilities = [0.1, 0.1, 0.8];
    expect(summaryDifferences(tampered)).toEqual(["summary.variants[1]", "summary.shifts[0]"]);
  });

  it("tsx bench/quality/check.ts exits 0 on a file whose summary its items give, 1 naming the parts that differ", () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), "quality-check-"));
    try {
      const file = path.join(directory, "quality.json");
      const report = { variants: [chat, debiased], summary: qualitySummary([chat, debiased]) };
      const check = () =>
        spawnSync(process.execPath, ["--import", "tsx", "bench/quality/check.ts", file], {
          cwd: path.resolve(import.meta.dirname, "../.."),
          encoding: "utf8",
        });
      writeFileSync(file, JSON.stringify(report));
      expect(check()).toMatchObject({
        status: 0,
        stdout: expect.stringContaining("the summary is what its 8 items give"),
      });
      report.variants[0]!.items[2]!.label = "o0";
      writeFileSync(file, JSON.stringify(report));
      expect(check()).toMatchObject({
        status: 1,
        stderr: expect.stringContaining("differs from its 8 items at summary.variants[0]\n"),
      });
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }, 60_000);

  const file = path.join(benchOut, "quality.json");
  it.skipIf(!existsSync(file))(
    `bench/out/quality.json's summary is what its items give${existsSync(file) ? "" : " (skipped: no bench/out/quality.json; run npm run bench:quality)"}`,
    () => {
      const report = JSON.parse(readFileSync(file, "utf8")) as QualityReport;
      expect(summaryDifferences(report)).toEqual([]);
    },
  );
});

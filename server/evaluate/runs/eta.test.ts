import { describe, expect, it } from "vitest";
import { describeOnStores } from "../../../tests/support/store/test-stores.ts";
import { createDataset } from "../datasets/dataset-store.ts";
import type { LabelledDecision } from "../datasets/labelled-decision.ts";
import { etaSeconds, promptSize } from "./eta.ts";
import { createRun, findRun, markResumed, progressCounts, recordResult } from "./run-store.ts";
import { evaluationSummary } from "./run-view.ts";

/** Items whose state grows: item i carries (i + 1) × 400 characters of state. */
function growing(count: number): LabelledDecision[] {
  return Array.from({ length: count }, (_, i) => ({
    decision: {
      id: `item-${i}`,
      state: "x".repeat((i + 1) * 400),
      question: "Refund?",
      options: [
        { id: "no", description: "No" },
        { id: "yes", description: "Yes" },
      ],
    },
    answer: "no",
    category: null,
    tier: null,
  }));
}

describe("evaluation time left", () => {
  it("charges the remaining items by their prompt size, not the mean item so far", () => {
    const sizes = new Map([
      [0, 100],
      [1, 100],
      [2, 1000],
      [3, 1000],
    ]);
    const finished = [
      { position: 0, finishedAt: "2026-01-01T00:00:05.000Z" },
      { position: 1, finishedAt: "2026-01-01T00:00:10.000Z" },
    ];
    // 200 characters took 10 s; 2,000 are left: 100 s (the per-item mean would say 10 s).
    expect(
      etaSeconds({
        sizes,
        targets: 1,
        finished,
        resumedAt: "2026-01-01T00:00:00.000Z",
        nowMs: Date.parse("2026-01-01T00:00:10.000Z"),
        concurrency: 1,
      }),
    ).toBeCloseTo(100, 6);
  });

  it("measures the pace only on items finished since the last (re)start, and counts every target", () => {
    const sizes = new Map([
      [0, 100],
      [1, 300],
    ]);
    const finished = [
      { position: 0, finishedAt: "2026-01-01T00:00:01.000Z" },
      { position: 1, finishedAt: "2026-01-01T00:01:06.000Z" },
      { position: 0, finishedAt: "2026-01-01T00:01:06.000Z" },
    ];
    // Resumed at 1:00; 400 characters in 6 s (one request per target in flight); left: item 1 on the second
    // target (300) = 4.5 s.
    expect(
      etaSeconds({
        sizes,
        targets: 2,
        finished,
        resumedAt: "2026-01-01T00:01:00.000Z",
        nowMs: Date.parse("2026-01-01T00:01:06.000Z"),
        concurrency: 1,
      }),
    ).toBeCloseTo(4.5, 6);
    expect(
      etaSeconds({
        sizes,
        targets: 1,
        finished: finished.slice(0, 1),
        resumedAt: "2026-01-01T00:01:00.000Z",
        nowMs: 0,
        concurrency: 1,
      }),
    ).toBeNull();
  });

  it("waits for the first wave of concurrent requests before estimating, then reads the pace of the whole wave", () => {
    // Four requests at a time, each 100 characters taking 40 s: 100 items take 1,000 s.
    const sizes = new Map(Array.from({ length: 100 }, (_, i) => [i, 100]));
    const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds)).toISOString();
    const wave = [37, 38, 39, 40].map((seconds, position) => ({ position, finishedAt: at(seconds) }));
    const eta = (finished: typeof wave, nowSeconds: number) =>
      etaSeconds({ sizes, targets: 1, finished, resumedAt: at(0), nowMs: Date.parse(at(nowSeconds)), concurrency: 4 });
    // The first answer alone would say 37 s per item, 3,663 s left: nearly four times the 963 s that are.
    expect(eta(wave.slice(0, 1), 37)).toBeNull();
    expect(eta(wave.slice(0, 3), 39)).toBeNull();
    expect(eta(wave, 40)).toBeCloseTo(960, 6);
  });

  it("estimates a run with fewer items left than its concurrency once they are all in", () => {
    const sizes = new Map([
      [0, 100],
      [1, 100],
    ]);
    const finished = [{ position: 0, finishedAt: "2026-01-01T00:00:10.000Z" }];
    const input = {
      sizes,
      targets: 1,
      resumedAt: "2026-01-01T00:00:00.000Z",
      nowMs: Date.parse("2026-01-01T00:00:10.000Z"),
    };
    expect(etaSeconds({ ...input, finished, concurrency: 4 })).toBeNull();
    expect(etaSeconds({ ...input, finished, concurrency: 1 })).toBeCloseTo(10, 6);
  });

  describeOnStores("on a stored run", (current) => {
    it("estimates a dataset whose items grow in length from the characters left", async () => {
      const { store } = current();
      const items = growing(10);
      const dataset = await createDataset(store, { name: "growing", source: "upload", format: "jsonl", items });
      const run = await createRun(store, {
        datasetId: dataset.id,
        endpoints: ["cpu"],
        concurrency: 1,
        targetAccuracy: 0.8,
      });
      expect(await markResumed(store, run.id)).toBe(true);
      const resumedAt = Date.parse((await findRun(store, run.id))!.resumed_at);
      // The first three (the shortest) items took 1 s each.
      const result = (position: number) => ({
        runId: run.id,
        slot: 0,
        position,
        itemId: `item-${position}`,
        optionIds: ["no", "yes"],
        probabilities: [0.5, 0.5],
        logits: null,
        chosen: "no",
        latencyMs: 1000,
        adapterMs: null,
        attempts: 1,
        errorKind: null,
        errorMessage: null,
        finishedAt: new Date(resumedAt + (position + 1) * 1000).toISOString(),
      });
      for (const position of [0, 1, 2]) expect(await recordResult(store, result(position))).toBe(true);
      // A second write of a finished item stores nothing.
      expect(await recordResult(store, { ...result(0), finishedAt: new Date().toISOString() })).toBe(false);
      const sizes = items.map((item) => promptSize(item.decision));
      const done = sizes.slice(0, 3).reduce((a, b) => a + b, 0);
      const left = sizes.slice(3).reduce((a, b) => a + b, 0);
      const claimed = (await findRun(store, run.id))!;
      expect(await progressCounts(store, claimed)).toEqual([{ slot: 0, done: 3, doneSinceResume: 3 }]);
      expect(await progressCounts(store, { ...claimed, resumed_at: new Date(resumedAt + 1500).toISOString() })).toEqual(
        [{ slot: 0, done: 3, doneSinceResume: 2 }],
      );
      const summary = await evaluationSummary(store, run.id, resumedAt + 3000);
      expect(summary?.progress.etaSeconds).toBeCloseTo((3 * left) / done, 6);
      // Far more than the 7 s a per-item mean gives: the items left are the long ones.
      expect(summary?.progress.etaSeconds).toBeGreaterThan(20);
    });
  });
});

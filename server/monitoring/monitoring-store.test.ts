import { expect, it } from "vitest";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import { decisionKind } from "./capture-record.ts";
import { LATENCY_BINS, latencyBin, topProbabilityBin } from "./histograms.ts";
import {
  type CaptureObjectReading,
  captureTotals,
  DECISION_RETENTION_MS,
  decisionKinds,
  forgetOldDecisions,
  type LocatedDecision,
  newestObjects,
  objectsRead,
  recordCaptureObject,
  rollupsBetween,
  variantDecisions,
} from "./monitoring-store.ts";

const ENDPOINT = "dc-monitored";
const QUESTION = "Refund?";
const OPTIONS = ["yes", "no"];
const KIND = decisionKind(QUESTION, OPTIONS);
const T0 = Date.parse("2026-12-04T10:00:00Z");
const MINUTE = T0 / 60_000;

function decision(line: number, atMs: number, top: number, latencyMs: number | null = 10): LocatedDecision {
  return {
    at: new Date(atMs),
    eventId: `e${line}`,
    inferenceId: null,
    item: 0,
    inputKey: `k${line}`,
    decisionId: `d${line}`,
    kind: KIND,
    question: QUESTION,
    options: OPTIONS,
    chosen: "yes",
    topProbability: top,
    probabilities: [top, 1 - top],
    latencyMs,
    line,
  };
}

const reading = (key: string, decisions: LocatedDecision[], variant = "AllTraffic"): CaptureObjectReading => ({
  endpointName: ENDPOINT,
  key: `data-capture/${ENDPOINT}/${variant}/2026/12/04/10/${key}.jsonl`,
  variant,
  records: decisions.length + 1,
  unreadable: 1,
  decisions,
});

describeOnStores("the monitoring store", (current) => {
  it("leaves evaluation traffic out of the rollups that Monitoring and drift read, and keeps its decisions", async () => {
    const { store } = current();
    const evaluation = { ...decision(1, T0 + 2_000, 0.7), inferenceId: "dc-eval-run-1-0-3" };
    await recordCaptureObject(store, reading("00-00-000-eval", [decision(0, T0 + 1_000, 0.9), evaluation]));

    const rollups = await rollupsBetween(store, ENDPOINT, MINUTE, MINUTE + 1, undefined);
    expect(rollups.map((rollup) => rollup.decisions)).toEqual([1]);
    expect(rollups[0]?.topBins[topProbabilityBin(0.7)]).toBe(0);
    const kept = await variantDecisions(store, ENDPOINT, "AllTraffic", T0, T0 + 60_000);
    expect(kept).toHaveLength(2);
  });

  it("records a capture object once, in per-minute rollups and single decisions", async () => {
    const { store } = current();
    const object = reading("00-00-000-a", [
      decision(0, T0 + 1_000, 0.9, 12),
      decision(1, T0 + 2_000, 0.62, null),
      decision(2, T0 + 61_000, 0.51, 40),
    ]);
    await recordCaptureObject(store, object);
    await recordCaptureObject(store, object);

    const rollups = await rollupsBetween(store, ENDPOINT, MINUTE, MINUTE + 2, undefined);
    const byMinute = new Map(rollups.map((rollup) => [rollup.minute, rollup]));
    expect(rollups).toHaveLength(2);
    expect(byMinute.get(MINUTE)).toMatchObject({ decisions: 2, latencySumMs: 12, latencyCount: 1, chosen: "yes" });
    expect(byMinute.get(MINUTE)?.topBins[topProbabilityBin(0.9)]).toBe(1);
    expect(byMinute.get(MINUTE)?.topBins[topProbabilityBin(0.62)]).toBe(1);
    expect(byMinute.get(MINUTE + 1)).toMatchObject({ decisions: 1, latencySumMs: 40, latencyCount: 1 });
    expect(await rollupsBetween(store, ENDPOINT, MINUTE, MINUTE + 2, "Shadow")).toEqual([]);
    expect(await captureTotals(store, ENDPOINT)).toEqual({ objects: 1, unreadable: 1 });
    expect(await captureTotals(store, "dc-other")).toEqual({ objects: 0, unreadable: 0 });
    expect(await decisionKinds(store, ENDPOINT)).toEqual(new Map([[KIND, { question: QUESTION, options: OPTIONS }]]));

    const kept = await variantDecisions(store, ENDPOINT, "AllTraffic", T0, T0 + 120_000);
    expect(kept.map((d) => [d.atMs, d.topProbability, d.latencyMs])).toEqual([
      [T0 + 1_000, 0.9, 12],
      [T0 + 2_000, 0.62, null],
      [T0 + 61_000, 0.51, 40],
    ]);
    expect(kept[0]?.probabilities).toEqual([0.9, 1 - 0.9]);
  });

  it("knows which objects it read, and each variant's newest", async () => {
    const { store } = current();
    await recordCaptureObject(store, reading("00-00-000-a", [decision(0, T0, 0.7)]));
    await recordCaptureObject(store, reading("00-05-000-b", [decision(0, T0 + 300_000, 0.7)]));
    await recordCaptureObject(store, reading("00-01-000-c", [decision(0, T0 + 60_000, 0.7)], "Shadow"));
    const keys = ["00-00-000-a", "00-01-000-a", "00-05-000-b"].map((key) => reading(key, []).key);
    expect(await objectsRead(store, ENDPOINT, keys)).toEqual(new Set([keys[0], keys[2]]));
    expect(await objectsRead(store, ENDPOINT, [])).toEqual(new Set());
    expect(await newestObjects(store, ENDPOINT)).toEqual(
      new Map([
        ["AllTraffic", reading("00-05-000-b", []).key],
        ["Shadow", reading("00-01-000-c", [], "Shadow").key],
      ]),
    );
  });

  it("adds up the rollups of objects of the same minute recorded at once, and counts an object read twice once", async () => {
    const { store } = current();
    // On PostgreSQL the recordings run on several connections at once, as several consoles' would.
    const objects = Array.from({ length: 6 }, (_, i) =>
      reading(`00-00-00${i}-x`, [decision(0, T0 + i * 1_000, 0.5 + i / 20, i + 1), decision(1, T0 + 500, 0.99, null)]),
    );
    await Promise.all([...objects, ...objects].map((object) => recordCaptureObject(store, object)));

    const [rollup, ...others] = await rollupsBetween(store, ENDPOINT, MINUTE, MINUTE + 1, "AllTraffic");
    expect(others).toEqual([]);
    expect(rollup?.decisions).toBe(12);
    expect(rollup?.latencyCount).toBe(6);
    expect(rollup?.latencySumMs).toBe(1 + 2 + 3 + 4 + 5 + 6);
    const topBins = new Array(100).fill(0);
    for (let i = 0; i < 6; i++) topBins[topProbabilityBin(0.5 + i / 20)]++;
    topBins[topProbabilityBin(0.99)] += 6;
    expect(rollup?.topBins).toEqual(topBins);
    const latencyBins = new Array(LATENCY_BINS).fill(0);
    for (let i = 0; i < 6; i++) latencyBins[latencyBin(i + 1)]++;
    expect(rollup?.latencyBins).toEqual(latencyBins);
    expect(await captureTotals(store, ENDPOINT)).toEqual({ objects: 6, unreadable: 6 });
    expect(await variantDecisions(store, ENDPOINT, "AllTraffic", T0, T0 + 60_000)).toHaveLength(12);
  });

  it("forgets single decisions older than the retention, and keeps their rollups", async () => {
    const { store } = current();
    await recordCaptureObject(store, reading("00-00-000-a", [decision(0, T0, 0.7), decision(1, T0 + 1_000, 0.8)]));
    await forgetOldDecisions(store, ENDPOINT, new Date(T0 + 500 + DECISION_RETENTION_MS));
    const kept = await variantDecisions(store, ENDPOINT, "AllTraffic", 0, Number.MAX_SAFE_INTEGER);
    expect(kept.map((d) => d.atMs)).toEqual([T0 + 1_000]);
    expect((await rollupsBetween(store, ENDPOINT, MINUTE, MINUTE + 1, undefined))[0]?.decisions).toBe(2);
  });
});

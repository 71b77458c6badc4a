import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ControlPlane, startControlPlane } from "@decision-console/local-aws";
import { testStackFixture } from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISTRIBUTION_BARS } from "../../contract/endpoints/monitoring.ts";
import { openTestStore, type TestStore } from "../../tests/support/store/test-stores.ts";
import type { AwsClients } from "../aws/clients.ts";
import { consoleClientsFor } from "../aws/local-console-clients.ts";
import type { Store } from "../store/store.ts";
import { decisionKind } from "./capture-record.ts";
import { driftView, publishDrift, putDriftAlarms } from "./drift.ts";
import { samplingNoiseDistance } from "./drift-score.ts";
import { setBaselineFromWindow } from "./drift-store.ts";
import { type LocatedDecision, recordCaptureObject } from "./monitoring-store.ts";

/**
 * Drift end to end in local mode, on decisions put into the monitoring store as the capture reader puts them (the
 * reading of capture files is endpoint-monitoring.model.test.ts's): a baseline from a capture window, the drift
 * published by the console's CloudWatch client under its IAM policy, and the console's drift alarms evaluated by
 * local CloudWatch. A constructed shift goes to ALARM; the same distribution in another sample stays OK.
 *
 * The threshold is the sampling noise at the test's counts, not a number picked to pass: the distance two samples of
 * one distribution reach with probability 0.001 (χ² at 0.999, drift-score.ts), taken for 20 bins, the most either
 * metric has, so it bounds both.
 */
let plane: ControlPlane;
let dataDir: string;
let opened: TestStore;
let store: Store;
let clients: AwsClients;

const QUESTION = "How urgent is this ticket?";
const OPTIONS = ["p1", "p2", "p3"];
const KIND = decisionKind(QUESTION, OPTIONS);
const BASELINE_DECISIONS = 600;
const CURRENT_DECISIONS = 300;
const MINUTE = 60_000;

/** mulberry32: a seeded generator, so each run draws the same samples. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Population {
  /** Each option's share of the chosen options. */
  mix: number[];
  /** The top probability is uniform on [low, high). */
  low: number;
  high: number;
}
const usual: Population = { mix: [0.5, 0.3, 0.2], low: 0.55, high: 0.95 };
/** Urgent tickets became the common case and the model grew less sure. */
const shifted: Population = { mix: [0.2, 0.3, 0.5], low: 0.36, high: 0.7 };

function decisions(population: Population, count: number, fromMs: number, toMs: number, seed: number) {
  const next = random(seed);
  return Array.from({ length: count }, (_, i): LocatedDecision => {
    const u = next();
    const index = u < (population.mix[0] ?? 0) ? 0 : u < (population.mix[0] ?? 0) + (population.mix[1] ?? 0) ? 1 : 2;
    const top = population.low + (population.high - population.low) * next();
    const probabilities = OPTIONS.map((_, j) => (j === index ? top : (1 - top) / 2));
    return {
      at: new Date(fromMs + ((toMs - fromMs) * i) / count),
      eventId: `e-${seed}-${i}`,
      inferenceId: null,
      item: 0,
      inputKey: `k-${seed}-${i}`,
      decisionId: `d-${i}`,
      kind: KIND,
      question: QUESTION,
      options: OPTIONS,
      chosen: OPTIONS[index] ?? "p1",
      topProbability: top,
      probabilities,
      latencyMs: 40,
      line: i,
    };
  });
}

async function capture(endpointName: string, key: string, batch: LocatedDecision[]) {
  await recordCaptureObject(store, {
    endpointName,
    key: `data-capture/${endpointName}/AllTraffic/${key}.jsonl`,
    variant: "AllTraffic",
    records: batch.length,
    unreadable: 0,
    decisions: batch,
  });
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "console-drift-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0, waitForEndpoints: false });
  clients = consoleClientsFor(plane);
  opened = await openTestStore("sqlite");
  store = opened.store;
});

afterAll(async () => {
  await opened?.close();
  await plane?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("decision drift in local mode", { timeout: 120_000 }, () => {
  it("alarms on a constructed shift and stays OK on another sample of the baseline's distribution", async () => {
    const now = Date.now();
    // The store keeps minutes: a baseline window counts the minutes wholly inside it, so this one is aligned.
    const minute = Math.floor(now / MINUTE) * MINUTE;
    const shiftedEndpoint = `${plane.resourcePrefix}drift-shifted`;
    const steadyEndpoint = `${plane.resourcePrefix}drift-steady`;
    // Baselines: four to three hours ago. Current traffic: 60 to 20 minutes ago, inside each of the three windows
    // the publisher reads below (the hour before now - 15, - 10 and - 5 minutes).
    for (const [endpoint, population, seed] of [
      [shiftedEndpoint, shifted, 11],
      [steadyEndpoint, usual, 12],
    ] as const) {
      await capture(
        endpoint,
        "baseline",
        decisions(usual, BASELINE_DECISIONS, minute - 240 * MINUTE, minute - 180 * MINUTE, seed),
      );
      await capture(
        endpoint,
        "current",
        decisions(population, CURRENT_DECISIONS, now - 60 * MINUTE, now - 20 * MINUTE, seed + 100),
      );
      await setBaselineFromWindow(store, endpoint, KIND, minute - 240 * MINUTE, minute - 180 * MINUTE, "operator");
    }

    const threshold = samplingNoiseDistance(DISTRIBUTION_BARS, BASELINE_DECISIONS, CURRENT_DECISIONS);
    expect(threshold).toBeCloseTo(0.199, 2);
    for (const endpoint of [shiftedEndpoint, steadyEndpoint]) {
      await putDriftAlarms(clients.cloudWatch, store, endpoint, KIND, threshold);
    }

    // Three rounds of the schedule, one in each of the alarm's last three 5-minute periods.
    for (const minutesAgo of [15, 10, 5]) {
      const published = await publishDrift(
        { store, cloudWatch: clients.cloudWatch },
        new Date(now - minutesAgo * MINUTE),
      );
      expect(published.map((p) => p.endpointName).sort()).toEqual([shiftedEndpoint, steadyEndpoint]);
    }
    plane.alarms.evaluateAll();

    const shiftedView = await driftView(clients.cloudWatch, store, shiftedEndpoint, new Date(now - 5 * MINUTE));
    const steadyView = await driftView(clients.cloudWatch, store, steadyEndpoint, new Date(now - 5 * MINUTE));
    const [shiftedKind] = shiftedView.kinds;
    const [steadyKind] = steadyView.kinds;
    expect(shiftedKind?.current?.decisions).toBe(CURRENT_DECISIONS);
    expect(steadyKind?.current?.decisions).toBe(CURRENT_DECISIONS);
    expect(shiftedKind?.baseline).toMatchObject({ decisions: BASELINE_DECISIONS, setBy: "operator" });
    expect(shiftedKind?.baseline?.source).toMatch(/^capture window .+\.\..+$/);

    // The shift: both distances above the noise threshold, both alarms in ALARM.
    expect(shiftedKind?.current?.optionMix).toBeGreaterThan(threshold);
    expect(shiftedKind?.current?.confidence).toBeGreaterThan(threshold);
    expect(shiftedKind?.alarms.map((a) => [a.metricName, a.state])).toEqual([
      ["OptionMixDrift", "ALARM"],
      ["ConfidenceDrift", "ALARM"],
    ]);
    // No shift: both below it (and below the noise at their own bin counts), both alarms OK.
    expect(steadyKind?.current?.optionMix).toBeLessThan(steadyKind?.current?.noise.optionMix ?? 0);
    expect(steadyKind?.current?.confidence).toBeLessThan(steadyKind?.current?.noise.confidence ?? 0);
    expect(steadyKind?.current?.optionMix).toBeLessThan(threshold);
    expect(steadyKind?.current?.confidence).toBeLessThan(threshold);
    expect(steadyKind?.alarms.map((a) => [a.metricName, a.state, a.threshold])).toEqual([
      ["OptionMixDrift", "OK", threshold],
      ["ConfidenceDrift", "OK", threshold],
    ]);
  });

  it("lists a kind whose alarms are set before its baseline, with nothing published and no data", async () => {
    const endpoint = `${plane.resourcePrefix}drift-unbaselined`;
    const long = Date.now() - 600 * MINUTE;
    await capture(endpoint, "earlier", decisions(usual, 10, long, long + 10 * MINUTE, 21));
    await putDriftAlarms(clients.cloudWatch, store, endpoint, KIND, 0.2);
    const view = await driftView(clients.cloudWatch, store, endpoint);
    expect(view.kinds).toMatchObject([{ kind: KIND, baseline: null, current: null }]);
    expect(view.kinds[0]?.alarms.map((a) => a.state)).toEqual(["INSUFFICIENT_DATA", "INSUFFICIENT_DATA"]);
  });

  it("refuses alarms on a kind the endpoint never captured nor baselined: it could not list them again", async () => {
    const endpoint = `${plane.resourcePrefix}drift-unknown-kind`;
    await expect(putDriftAlarms(clients.cloudWatch, store, endpoint, KIND, 0.2)).rejects.toMatchObject({
      code: "not_found",
      message: expect.stringContaining(`has captured no decisions of kind ${KIND} and has no baseline for it`),
    });
    expect((await driftView(clients.cloudWatch, store, endpoint)).kinds).toEqual([]);
  });
});

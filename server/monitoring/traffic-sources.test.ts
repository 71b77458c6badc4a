import { expect, it } from "vitest";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import { recordGatewayCall } from "../gateway/usage.ts";
import { decisionKind } from "./capture-record.ts";
import { dataSpan, spanWindow } from "./data-span.ts";
import { type LocatedDecision, recordCaptureObject, rollupsBetween } from "./monitoring-store.ts";
import { summarizeRollups, windowBounds } from "./monitoring-summary.ts";
import { evaluationRollups, taggedDecisions, trafficSources } from "./traffic-sources.ts";

const ENDPOINT = "dc-sourced";
const QUESTION = "Refund?";
const OPTIONS = ["yes", "no"];
const KIND = decisionKind(QUESTION, OPTIONS);
const NOW = new Date("2026-12-04T12:00:00Z");
const MINUTE_MS = 60_000;

function decision(line: number, atMs: number, inferenceId: string | null, chosen = "yes"): LocatedDecision {
  return {
    at: new Date(atMs),
    eventId: `e${line}`,
    inferenceId,
    item: 0,
    inputKey: `k${line}`,
    decisionId: `d${line}`,
    kind: KIND,
    question: QUESTION,
    options: OPTIONS,
    chosen,
    topProbability: 0.8,
    probabilities: chosen === "yes" ? [0.8, 0.2] : [0.2, 0.8],
    latencyMs: 20,
    line,
  };
}

const record = (store: Parameters<typeof recordCaptureObject>[0], key: string, decisions: LocatedDecision[]) =>
  recordCaptureObject(store, {
    endpointName: ENDPOINT,
    key: `data-capture/${ENDPOINT}/AllTraffic/2026/12/04/11/${key}.jsonl`,
    variant: "AllTraffic",
    records: decisions.length,
    unreadable: 0,
    decisions,
  });

const hour = { endpointName: ENDPOINT, fromMs: NOW.getTime() - 3_600_000, toMs: NOW.getTime(), variant: undefined };

describeOnStores("where Monitoring's decisions came from", (current) => {
  it("counts gateway and evaluation decisions per kind; the rest came from direct callers", async () => {
    const { store } = current();
    const at = NOW.getTime() - 10 * MINUTE_MS;
    const gatewayIds = ["dc-gw-0b6f2a52-5c36-4a4e-9d0e-0d6f7f8b9a10", "dc-gw-7d1c3e55-2f0a-4c43-8a51-1b2c3d4e5f60"];
    await record(store, "a", [
      decision(0, at, gatewayIds[0] ?? null),
      decision(1, at, gatewayIds[1] ?? null),
      decision(2, at, "dc-eval-run-1-0-3"),
      decision(3, at, "3f1e6a2c-app-chosen-id"),
      decision(4, at, null),
    ]);
    for (const inferenceId of gatewayIds) {
      await recordGatewayCall(store, {
        keyId: "key-1",
        endpointName: ENDPOINT,
        protocol: "decisions",
        status: 200,
        inputTokens: 10,
        outputTokens: 1,
        latencyMs: 30,
        inferenceId,
        atMs: at + 1_000,
      });
    }
    const production = await taggedDecisions(store, hour, false);
    expect(production.get(KIND)).toEqual({ gateway: 2, evaluation: 0 });
    // Production's rollups hold 4 decisions (the evaluation one is left out).
    expect(trafficSources(4, production.get(KIND), false)).toEqual({ direct: 2, gateway: 2, evaluation: 0 });
    const all = await taggedDecisions(store, hour, true);
    expect(all.get(KIND)).toEqual({ gateway: 2, evaluation: 1 });
    expect(trafficSources(5, all.get(KIND), true)).toEqual({ direct: 2, gateway: 2, evaluation: 1 });
  });

  it("reads no single decision when the gateway did not call the endpoint and evaluation traffic is not asked for", async () => {
    const { store } = current();
    const at = NOW.getTime() - 10 * MINUTE_MS;
    await record(store, "d", [decision(0, at, null), decision(1, at, "dc-eval-run-1-0-1")]);
    expect(await taggedDecisions(store, hour, false)).toEqual(new Map());
    expect(trafficSources(1, undefined, false)).toEqual({ direct: 1, gateway: 0, evaluation: 0 });
    expect((await taggedDecisions(store, hour, true)).get(KIND)).toEqual({ gateway: 0, evaluation: 1 });
  });

  it("adds the window's evaluation decisions to production's only when asked for", async () => {
    const { store } = current();
    const at = NOW.getTime() - 5 * MINUTE_MS;
    await record(store, "b", [
      decision(0, at, null),
      decision(1, at, "dc-eval-run-1-0-1", "no"),
      decision(2, at, "dc-eval-run-1-0-2", "no"),
    ]);
    const bounds = windowBounds("1h", NOW);
    const production = await rollupsBetween(store, ENDPOINT, bounds.fromMinute, bounds.toMinute, undefined);
    const kinds = new Map([[KIND, { question: QUESTION, options: OPTIONS }]]);
    expect(summarizeRollups(production, kinds, bounds, 0.5).kinds[0]?.chosen).toEqual([
      { option: "yes", decisions: 1 },
      { option: "no", decisions: 0 },
    ]);
    const withEvaluation = [...production, ...(await evaluationRollups(store, hour))];
    const summary = summarizeRollups(withEvaluation, kinds, bounds, 0.5);
    expect(summary.decisions).toBe(3);
    expect(summary.kinds[0]?.chosen).toEqual([
      { option: "yes", decisions: 1 },
      { option: "no", decisions: 2 },
    ]);
    expect(summary.kinds[0]?.latency?.meanMs).toBe(20);
  });

  it("spans the minutes of the last 7 days that hold decisions, evaluation ones only when asked for", async () => {
    const { store } = current();
    expect(await dataSpan(store, ENDPOINT, NOW, false)).toBeNull();
    const production = NOW.getTime() - 3 * 3_600_000;
    const evaluation = NOW.getTime() - 30 * 3_600_000;
    await record(store, "c", [decision(0, production, null), decision(1, evaluation, "dc-eval-run-2-0-0")]);
    const minute = (ms: number) => Math.floor(ms / MINUTE_MS);
    expect(await dataSpan(store, ENDPOINT, NOW, false)).toEqual({
      fromMinute: minute(production),
      toMinute: minute(production),
    });
    expect(await dataSpan(store, ENDPOINT, NOW, true)).toEqual({
      fromMinute: minute(evaluation),
      toMinute: minute(production),
    });
  });
});

it("picks the smallest window that holds the data's span, and the widest without data", () => {
  const minutesAgo = (minutes: number) => Math.floor(NOW.getTime() / MINUTE_MS) - minutes;
  const span = (from: number) => ({ fromMinute: minutesAgo(from), toMinute: minutesAgo(0) });
  expect(spanWindow(span(50), NOW)).toBe("1h");
  expect(spanWindow(span(3 * 60), NOW)).toBe("6h");
  expect(spanWindow(span(20 * 60), NOW)).toBe("24h");
  expect(spanWindow(span(3 * 24 * 60), NOW)).toBe("7d");
  expect(spanWindow(span(6.9 * 24 * 60), NOW)).toBe("7d");
  expect(spanWindow(null, NOW)).toBe("7d");
});

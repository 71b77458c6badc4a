import { expect, it } from "vitest";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import { decisionKind } from "./capture-record.ts";
import { type LocatedDecision, recordCaptureObject } from "./monitoring-store.ts";
import { countUnlabelled, unlabelledDecisions } from "./review-store.ts";

const ENDPOINT = "dc-reviewed";
const AT = Date.parse("2026-12-04T10:00:00Z");

function decision(line: number, inferenceId: string | null): LocatedDecision {
  return {
    at: new Date(AT + line * 1_000),
    eventId: `e${line}`,
    inferenceId,
    item: 0,
    inputKey: `k${line}`,
    decisionId: `d${line}`,
    kind: decisionKind("Refund?", ["yes", "no"]),
    question: "Refund?",
    options: ["yes", "no"],
    chosen: "yes",
    topProbability: 0.6,
    probabilities: [0.6, 0.4],
    latencyMs: 10,
    line,
  };
}

describeOnStores("the review queue's decisions", (current) => {
  async function recorded() {
    const { store } = current();
    await recordCaptureObject(store, {
      endpointName: ENDPOINT,
      key: `data-capture/${ENDPOINT}/AllTraffic/2026/12/04/10/00-00-000-a.jsonl`,
      variant: "AllTraffic",
      records: 3,
      unreadable: 0,
      decisions: [decision(0, null), decision(1, "dc-eval-run-1-0-0"), decision(2, "from-the-gateway")],
    });
    return store;
  }
  const lines = (decisions: { line: number }[]) => decisions.map((d) => d.line).sort();

  it("leaves the evaluation runner's requests out by default", async () => {
    const store = await recorded();
    const scope = { variants: ["AllTraffic"] };
    expect(
      lines(await unlabelledDecisions(store, ENDPOINT, { ...scope, order: "lowest-confidence", limit: 10 })),
    ).toEqual([0, 2]);
    expect(await countUnlabelled(store, ENDPOINT, scope)).toBe(2);
  });

  it("includes them when asked to", async () => {
    const store = await recorded();
    const scope = { variants: ["AllTraffic"], includeEvaluation: true };
    expect(lines(await unlabelledDecisions(store, ENDPOINT, { ...scope, order: "random", limit: 10 }))).toEqual([
      0, 1, 2,
    ]);
    expect(await countUnlabelled(store, ENDPOINT, scope)).toBe(3);
  });
});

import type { CloudWatchClient, DescribeAlarmsCommandInput } from "@aws-sdk/client-cloudwatch";
import { expect, it } from "vitest";
import { DRIFT_METRICS } from "../../contract/stack/console-contract.ts";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import { decisionKind } from "./capture-record.ts";
import { driftAlarmName, driftView } from "./drift.ts";
import { type LocatedDecision, recordCaptureObject } from "./monitoring-store.ts";

const ENDPOINT = "dc-many-kinds";
const OPTIONS = ["yes", "no"];
/** 60 kinds: 120 alarm names, more than one DescribeAlarms call takes. */
const QUESTIONS = Array.from({ length: 60 }, (_, i) => `Question ${i}?`);

function decision(question: string, i: number): LocatedDecision {
  return {
    at: new Date(Date.parse("2026-12-04T10:00:00Z") + i * 1_000),
    eventId: `e${i}`,
    inferenceId: null,
    item: 0,
    inputKey: `k${i}`,
    decisionId: `d${i}`,
    kind: decisionKind(question, OPTIONS),
    question,
    options: OPTIONS,
    chosen: "yes",
    topProbability: 0.8,
    probabilities: [0.8, 0.2],
    latencyMs: null,
    line: i,
  };
}

/** A CloudWatch client that records each DescribeAlarms and knows one alarm. */
function recordingCloudWatch(known: string) {
  const asked: DescribeAlarmsCommandInput[] = [];
  const client = {
    async send(command: { input: DescribeAlarmsCommandInput }) {
      asked.push(command.input);
      const names = command.input.AlarmNames ?? [];
      return {
        MetricAlarms: names.includes(known)
          ? [{ AlarmName: known, Threshold: 0.2, StateValue: "OK", StateReason: "below" }]
          : [],
      };
    },
  } as unknown as CloudWatchClient;
  return { client, asked };
}

describeOnStores("the drift view's alarms (issue 50.5)", (current) => {
  it("are asked for by the names of the store's kinds, at most 100 a call, never by a name prefix", async () => {
    const { store } = current();
    await recordCaptureObject(store, {
      endpointName: ENDPOINT,
      key: `data-capture/${ENDPOINT}/AllTraffic/a.jsonl`,
      variant: "AllTraffic",
      records: QUESTIONS.length,
      unreadable: 0,
      decisions: QUESTIONS.map((question, i) => decision(question, i)),
    });
    const kind = decisionKind(QUESTIONS[7] ?? "", OPTIONS);
    const alarm = driftAlarmName(ENDPOINT, kind, DRIFT_METRICS.optionMix);
    const cloudWatch = recordingCloudWatch(alarm);

    const view = await driftView(cloudWatch.client, store, ENDPOINT);

    expect(cloudWatch.asked.every((input) => input.AlarmNamePrefix === undefined)).toBe(true);
    expect(cloudWatch.asked.map((input) => input.AlarmNames?.length)).toEqual([100, 20]);
    const expected = QUESTIONS.flatMap((question) =>
      [DRIFT_METRICS.optionMix, DRIFT_METRICS.confidence].map((metric) =>
        driftAlarmName(ENDPOINT, decisionKind(question, OPTIONS), metric),
      ),
    );
    expect(cloudWatch.asked.flatMap((input) => input.AlarmNames ?? []).sort()).toEqual(expected.sort());
    expect(view.kinds.map((k) => [k.kind, k.alarms.map((a) => a.name)])).toEqual([[kind, [alarm]]]);
  });
});

import { CloudWatchClient, PutMetricAlarmCommand, PutMetricDataCommand } from "@aws-sdk/client-cloudwatch";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { DescribeEndpointCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import { mockClient } from "aws-sdk-client-mock";
import { beforeEach, expect, it } from "vitest";
import { MIN_LABELS_FOR_ALARM } from "../../contract/endpoints/realised-quality.ts";
import { accuracyInterval } from "../../contract/evaluate/threshold.ts";
import { REALISED_METRICS } from "../../contract/stack/console-contract.ts";
import { scoredRun } from "../../tests/support/evaluate/scored-run.ts";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import type { Store } from "../store/store.ts";
import { decisionKind } from "./capture-record.ts";
import { setBaselineFromEvaluationRun } from "./drift-store.ts";
import { decisionsByInferenceId, storeDecisionLabels } from "./ground-truth-store.ts";
import { type LocatedDecision, recordCaptureObject } from "./monitoring-store.ts";
import { publishRealised, realisedAlarmName } from "./realised-publisher.ts";

const ENDPOINT = "dc-realised";
const QUESTION = "Refund?";
const OPTIONS = ["yes", "no"];
const KIND = decisionKind(QUESTION, OPTIONS);
const NOW = new Date("2026-12-07T12:00:00Z");
const DECIDED = NOW.getTime() - 86_400_000;
/** The evaluation: 180 of 200 right, every item at 0.9 (above any threshold up to 0.9). */
const EVALUATED = { correct: 180, total: 200 };
const CAPTURED = 300;

const s3 = mockClient(S3Client);
const sageMaker = mockClient(SageMakerClient);
const cloudWatch = mockClient(CloudWatchClient);

function decision(i: number): LocatedDecision {
  return {
    at: new Date(DECIDED + i),
    eventId: `e${i}`,
    inferenceId: `inf-${i}`,
    item: 0,
    inputKey: `k${i}`,
    decisionId: `d${i}`,
    kind: KIND,
    question: QUESTION,
    options: OPTIONS,
    chosen: "yes",
    topProbability: 0.9,
    probabilities: [0.9, 0.1],
    latencyMs: null,
    line: i,
  };
}

async function evaluate(store: Store) {
  const runId = await scoredRun(store, {
    endpoints: [ENDPOINT],
    question: QUESTION,
    options: OPTIONS,
    answers: Array.from({ length: EVALUATED.total }, (_, i) => (i < EVALUATED.correct ? "yes" : "no")),
    probabilities: [0.9, 0.1],
  });
  await setBaselineFromEvaluationRun(store, ENDPOINT, KIND, runId, "ops");
}

/** Labels for the first `labelled` decisions, the first `right` of them "yes" (what the endpoint chose). */
async function label(store: Store, labelled: number, right: number) {
  const ids = Array.from({ length: labelled }, (_, i) => `inf-${i}`);
  const found = await decisionsByInferenceId(store, ENDPOINT, ids);
  const labels = ids.flatMap((id, i) =>
    (found.get(id) ?? []).map((target) => ({
      decision: target,
      label: i < right ? "yes" : "no",
      labelledAtMs: NOW.getTime() - 3_600_000,
      source: "test",
    })),
  );
  await storeDecisionLabels(store, ENDPOINT, labels);
}

const published = () =>
  cloudWatch
    .commandCalls(PutMetricDataCommand)
    .flatMap((call) => call.args[0].input.MetricData ?? [])
    .map((datum) => [datum.MetricName, datum.Value]);

describeOnStores("realised quality publishing", (current) => {
  const deps = () => ({
    store: current().store,
    s3: new S3Client({ region: "us-east-1" }),
    sageMaker: new SageMakerClient({ region: "us-east-1" }),
    cloudWatch: new CloudWatchClient({ region: "us-east-1" }),
    artifactBucket: "bucket",
  });

  beforeEach(async () => {
    s3.reset();
    sageMaker.reset();
    cloudWatch.reset();
    s3.on(ListObjectsV2Command).resolves({});
    sageMaker
      .on(DescribeEndpointCommand)
      .resolves({ EndpointName: ENDPOINT, ProductionVariants: [{ VariantName: "AllTraffic" }] } as never);
    cloudWatch.on(PutMetricDataCommand).resolves({});
    cloudWatch.on(PutMetricAlarmCommand).resolves({});
    const { store } = current();
    await recordCaptureObject(store, {
      endpointName: ENDPOINT,
      key: `data-capture/${ENDPOINT}/AllTraffic/2026/12/06/12/00-00-000-a.jsonl`,
      variant: "AllTraffic",
      records: CAPTURED,
      unreadable: 0,
      decisions: Array.from({ length: CAPTURED }, (_, i) => decision(i)),
    });
    await evaluate(store);
  });

  it("publishes a positive shortfall and puts the alarm when labels show accuracy below the evaluation's bound", async () => {
    // 80% of 260 labels right, against an evaluation of 90% on 200 items (lower bound about 85%).
    await label(current().store, 260, 208);
    await publishRealised(deps(), NOW);
    const lower = accuracyInterval(EVALUATED.correct, EVALUATED.total).lower;
    const metrics = new Map(published() as [string, number][]);
    expect(metrics.get(REALISED_METRICS.accuracyAtThreshold)).toBeCloseTo(0.8, 10);
    expect(metrics.get(REALISED_METRICS.labelledShare)).toBeCloseTo(260 / CAPTURED, 10);
    expect(metrics.get(REALISED_METRICS.shortfall)).toBeCloseTo(lower - 0.8, 10);
    expect(metrics.get(REALISED_METRICS.shortfall)).toBeGreaterThan(0);
    const alarms = cloudWatch.commandCalls(PutMetricAlarmCommand).map((call) => call.args[0].input);
    expect(alarms).toMatchObject([
      {
        AlarmName: realisedAlarmName(ENDPOINT, KIND),
        MetricName: REALISED_METRICS.shortfall,
        Threshold: 0,
        ComparisonOperator: "GreaterThanThreshold",
      },
    ]);
  });

  it("publishes a shortfall below zero when the labels agree with the evaluation", async () => {
    await label(current().store, 260, 234);
    await publishRealised(deps(), NOW);
    const metrics = new Map(published() as [string, number][]);
    expect(metrics.get(REALISED_METRICS.accuracyAtThreshold)).toBeCloseTo(0.9, 10);
    expect(metrics.get(REALISED_METRICS.shortfall)).toBeLessThan(0);
  });

  it("publishes no shortfall with fewer labels than the alarm needs, so the alarm sees missing data", async () => {
    await label(current().store, MIN_LABELS_FOR_ALARM - 1, 100);
    await publishRealised(deps(), NOW);
    const names = published().map(([name]) => name);
    expect(names).toContain(REALISED_METRICS.accuracyAtThreshold);
    expect(names).not.toContain(REALISED_METRICS.shortfall);
    expect(cloudWatch.commandCalls(PutMetricAlarmCommand)).toHaveLength(0);
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Db, openLocalDatabase } from "../database.ts";
import { LocalAuthorizer } from "../iam/authorize.ts";
import { RequestAuthorizer } from "../iam/request-authorizer.ts";
import { applicationAutoScalingAuthorization } from "../iam/requests/application-auto-scaling.ts";
import type { RequestFacts } from "../iam/requests/facts.ts";
import { loadStackPolicies } from "../iam/stack-policies.ts";
import type { LocalPrincipal } from "../local-credentials.ts";
import { MetricDatapoints } from "../metric-datapoints.ts";
import { MetricsStore } from "../metrics-store.ts";
import { testStackFixture } from "../test-support/stack-fixture.ts";
import type { AlarmActionEvent } from "./alarm-actions.ts";
import { AlarmEngine } from "./alarm-engine.ts";
import { evaluateAlarm } from "./alarm-evaluation.ts";
import type { MetricAlarmDefinition } from "./metric-alarm.ts";
import { MetricSource } from "./metric-source.ts";

const alarm = (overrides: Partial<MetricAlarmDefinition> = {}): MetricAlarmDefinition => ({
  AlarmName: "dc-e-5xx",
  ActionsEnabled: true,
  OKActions: [],
  AlarmActions: [],
  InsufficientDataActions: [],
  Namespace: "AWS/SageMaker",
  MetricName: "Invocation5XXErrors",
  Dimensions: [{ Name: "EndpointName", Value: "dc-e" }],
  Statistic: "Sum",
  Period: 10,
  EvaluationPeriods: 3,
  DatapointsToAlarm: 2,
  Threshold: 0,
  ComparisonOperator: "GreaterThanThreshold",
  ...overrides,
});

describe("evaluateAlarm", () => {
  const period = (start: number, values: number[]) => ({ start: start * 10_000, values });

  it("goes to ALARM when M of the N data points breach, and says which", () => {
    const result = evaluateAlarm(alarm(), [period(0, [1]), period(1, [0]), period(2, [2, 1])], 30_000);
    expect(result.state).toBe("ALARM");
    expect(result.reason).toContain("2 out of the last 3 datapoints");
    expect(evaluateAlarm(alarm(), [period(0, [1]), period(1, [0]), period(2, [0])], 30_000).state).toBe("OK");
  });

  it("follows TreatMissingData for periods without data", () => {
    const empty = [period(0, []), period(1, []), period(2, [])];
    expect(evaluateAlarm(alarm(), empty, 30_000).state).toBe("INSUFFICIENT_DATA");
    expect(evaluateAlarm(alarm({ TreatMissingData: "breaching" }), empty, 30_000).state).toBe("ALARM");
    expect(evaluateAlarm(alarm({ TreatMissingData: "notBreaching" }), empty, 30_000).state).toBe("OK");
    expect(evaluateAlarm(alarm({ TreatMissingData: "ignore" }), empty, 30_000).state).toBeUndefined();
  });

  it("computes a percentile of ModelLatency and ignores low-sample periods when asked to", () => {
    const latency = alarm({
      MetricName: "ModelLatency",
      Statistic: undefined,
      ExtendedStatistic: "p90",
      EvaluationPeriods: 1,
      DatapointsToAlarm: 1,
      Threshold: 500_000,
    });
    const slowTail = [period(0, [...Array(8).fill(1000), 900_000, 900_000])];
    expect(evaluateAlarm(latency, slowTail, 10_000).state).toBe("ALARM");
    const few = [period(0, [900_000])];
    expect(
      evaluateAlarm({ ...latency, EvaluateLowSampleCountPercentile: "ignore" }, few, 10_000).state,
    ).toBeUndefined();
  });
});

describe("AlarmEngine", () => {
  let dir: string;
  let db: Db;
  let now: number;
  let engine: AlarmEngine;
  let metrics: MetricsStore;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "alarm-engine-"));
    db = openLocalDatabase(dir);
    metrics = new MetricsStore(db);
    now = Date.now();
    engine = new AlarmEngine(db, new MetricSource(metrics, new MetricDatapoints(db)), {
      clock: () => now,
      evaluationIntervalMs: 0,
    });
  });

  afterEach(() => {
    engine.close();
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("evaluates the endpoint's recorded invocations and runs the new state's actions through registered handlers", async () => {
    const scaling = "arn:aws:autoscaling:us-east-1:000000000000:scalingPolicy:x:resource/sagemaker/y:policyName/z";
    const events: AlarmActionEvent[] = [];
    engine.actions.register({
      permissionsFor: () => [],
      matches: (arn) => arn.startsWith("arn:aws:autoscaling:"),
      handle: (e) => void events.push(e),
    });
    const transitions: string[] = [];
    engine.onTransition(({ alarm: changed, previousState }) => transitions.push(`${previousState}->${changed.state}`));
    const put = engine.put(
      alarm({ EvaluationPeriods: 1, DatapointsToAlarm: 1, AlarmActions: [scaling, "arn:aws:sns:us-east-1:0:t"] }),
      "us-east-1",
      "000000000000",
    );
    expect(put.state).toBe("INSUFFICIENT_DATA");
    expect(put.arn).toBe("arn:aws:cloudwatch:us-east-1:000000000000:alarm:dc-e-5xx");

    metrics.recordInvocation("dc-e", "AllTraffic", 200, 1000);
    metrics.recordInvocation("dc-e", "AllTraffic", 502, 1000);
    metrics.recordInvocation("other", "AllTraffic", 500, 1000);
    // The period of these invocations is complete.
    now += 10_000;
    engine.evaluateAll();
    expect(engine.get("dc-e-5xx")?.state).toBe("ALARM");
    expect(engine.get("dc-e-5xx")?.stateReason).toContain("[1.0 (");
    expect(transitions).toEqual(["INSUFFICIENT_DATA->ALARM"]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toMatchObject([
      { actionArn: scaling, state: "ALARM", previousState: "INSUFFICIENT_DATA", repeated: false },
    ]);

    // A later period without data: missing (the default) leaves nothing to evaluate.
    now += 10_000;
    engine.evaluateAll();
    expect(engine.get("dc-e-5xx")?.state).toBe("INSUFFICIENT_DATA");
  });

  it("repeats the actions of handlers that ask for it once per period while the alarm stays in ALARM", async () => {
    const events: AlarmActionEvent[] = [];
    engine.actions.register({
      permissionsFor: () => [],
      matches: (arn) => arn === "arn:aws:autoscaling:policy",
      repeatWhileInState: true,
      handle: (e) => void events.push(e),
    });
    engine.put(
      alarm({ AlarmActions: ["arn:aws:autoscaling:policy"], TreatMissingData: "breaching" }),
      "us-east-1",
      "000000000000",
    );
    now += 5_000;
    engine.evaluateAll();
    now += 10_000;
    engine.evaluateAll();
    await new Promise((resolve) => setImmediate(resolve));
    expect(events.map((e) => e.repeated)).toEqual([false, true]);
  });

  it("never acts on a resource the alarm's creator could not act on (issue 51.1)", async () => {
    // The console under the stack's policy: it may change only scaling policies of targets carrying its tag.
    const policies = loadStackPolicies(testStackFixture().stack, {
      accountId: "000000000000",
      region: "us-east-1",
      namePrefix: "dc-",
      bucketName: "decision-console-local",
    });
    const tagged = new Set(["endpoint/dc-ours/variant/AllTraffic"]);
    const facts = (region: string): RequestFacts => ({
      region,
      accountId: "000000000000",
      sageMakerTags: () => ({}),
      scalableTarget: (_namespace, resourceId) => ({
        arn: `arn:aws:application-autoscaling:${region}:000000000000:scalable-target/0${resourceId.split("/")[1]}`,
        tags: tagged.has(resourceId)
          ? ({ "decision-console:managed-by": "decision-console" } as Record<string, string>)
          : {},
      }),
    });
    const iam = new RequestAuthorizer(new LocalAuthorizer(policies, "000000000000"), facts);
    engine.actions.holdCreatorsTo(
      (creator, region, queries) => iam.missingPermissions(creator, region, queries).length === 0,
    );
    const policyOf = (endpoint: string) =>
      `arn:aws:autoscaling:us-east-1:000000000000:scalingPolicy:0f3c2a8e-5b1d-4c7a-9e2f-6a4b8c1d2e3f:resource/sagemaker/endpoint/${endpoint}/variant/AllTraffic:policyName/wake`;
    const acted: string[] = [];
    engine.actions.register({
      matches: (arn) => arn.startsWith("arn:aws:autoscaling:"),
      permissionsFor: (arn, region) =>
        applicationAutoScalingAuthorization.PutScalingPolicy!(
          {
            ServiceNamespace: "sagemaker",
            ResourceId: /resource\/sagemaker\/(.+):policyName/.exec(arn)?.[1] ?? "",
            ScalableDimension: "sagemaker:variant:DesiredInstanceCount",
            PolicyName: "wake",
          },
          facts(region),
        ),
      handle: (e) => void acted.push(`${e.alarmName} -> ${e.actionArn.split("/")[3]}`),
    });
    const breaching = (name: string, endpoint: string) =>
      alarm({ AlarmName: name, AlarmActions: [policyOf(endpoint)], TreatMissingData: "breaching" });
    const console_: LocalPrincipal = { kind: "console" };
    engine.put(breaching("dc-ours-wake", "dc-ours"), "us-east-1", "000000000000", console_);
    // A prefixed endpoint whose target someone else registered, without the console's tag.
    engine.put(breaching("dc-theirs-wake", "dc-theirs"), "us-east-1", "000000000000", console_);
    engine.put(breaching("ops-theirs-wake", "dc-theirs"), "us-east-1", "000000000000", { kind: "admin" });
    now += 5_000;
    engine.evaluateAll();
    await new Promise((resolve) => setImmediate(resolve));
    expect(engine.get("dc-theirs-wake")?.state).toBe("ALARM");
    expect(acted.sort()).toEqual(["dc-ours-wake -> dc-ours", "ops-theirs-wake -> dc-theirs"]);
  });

  it("evaluates datapoints local services publish, as GetMetricData shows them (one metric source)", () => {
    const published = new MetricDatapoints(db);
    engine.put(
      alarm({
        AlarmName: "dc-e-wake",
        MetricName: "HasBacklogWithoutCapacity",
        Statistic: "Average",
        Threshold: 1,
        ComparisonOperator: "GreaterThanOrEqualToThreshold",
        EvaluationPeriods: 2,
        DatapointsToAlarm: 2,
        Dimensions: [{ Name: "EndpointName", Value: "dc-e" }],
      }),
      "us-east-1",
      "000000000000",
    );
    const start = Math.floor(now / 10_000) * 10_000;
    published.put("AWS/SageMaker", "HasBacklogWithoutCapacity", { EndpointName: "dc-e" }, 1, "Count", start);
    published.put("AWS/SageMaker", "HasBacklogWithoutCapacity", { EndpointName: "dc-e" }, 1, "Count", start + 10_000);
    published.put("AWS/SageMaker", "HasBacklogWithoutCapacity", { EndpointName: "other" }, 0, "Count", start + 10_000);
    now = start + 20_000;
    engine.evaluateAll();
    expect(engine.get("dc-e-wake")).toMatchObject({ state: "ALARM" });
    expect(engine.get("dc-e-wake")?.stateReason).toContain("2 out of the last 2 datapoints");
  });

  it("answers no percentile of SageMaker's ModelLatency (SageMaker lists Average, Sum, Min, Max, SampleCount)", () => {
    const latency = (name: string, stat: Partial<MetricAlarmDefinition>) =>
      alarm({
        AlarmName: name,
        MetricName: "ModelLatency",
        Statistic: undefined,
        ...stat,
        Dimensions: [
          { Name: "EndpointName", Value: "dc-e" },
          { Name: "VariantName", Value: "AllTraffic" },
        ],
        Unit: "Microseconds",
        EvaluationPeriods: 1,
        DatapointsToAlarm: 1,
        Threshold: 500_000,
      });
    engine.put(latency("dc-e-latency-p90", { ExtendedStatistic: "p90" }), "us-east-1", "000000000000");
    engine.put(latency("dc-e-latency-average", { Statistic: "Average" }), "us-east-1", "000000000000");
    for (let i = 0; i < 10; i++) metrics.recordInvocation("dc-e", "AllTraffic", 200, 900_000);
    now += 10_000;
    engine.evaluateAll();
    expect(engine.get("dc-e-latency-average")?.state).toBe("ALARM");
    expect(engine.get("dc-e-latency-p90")?.state).toBe("INSUFFICIENT_DATA");
  });

  it("computes percentiles of metrics published raw outside SageMaker's namespace", () => {
    const published = new MetricDatapoints(db);
    engine.put(
      alarm({
        AlarmName: "custom-p90",
        Namespace: "DecisionConsole/Test",
        MetricName: "Latency",
        Statistic: undefined,
        ExtendedStatistic: "p90",
        EvaluationPeriods: 1,
        DatapointsToAlarm: 1,
        Threshold: 500,
      }),
      "us-east-1",
      "000000000000",
    );
    const start = Math.floor(now / 10_000) * 10_000;
    for (let i = 0; i < 10; i++)
      published.put("DecisionConsole/Test", "Latency", { EndpointName: "dc-e" }, 900, "Milliseconds", start);
    now = start + 10_000;
    engine.evaluateAll();
    expect(engine.get("custom-p90")?.state).toBe("ALARM");
  });

  it("holds a SetAlarmState until the next evaluation and keeps alarms across a reopen of the database", () => {
    engine.put(alarm(), "us-east-1", "000000000000");
    engine.setState("dc-e-5xx", "ALARM", "forced by the operator");
    expect(engine.get("dc-e-5xx")).toMatchObject({ state: "ALARM", stateReason: "forced by the operator" });
    engine.close();
    db.close();
    db = openLocalDatabase(dir);
    engine = new AlarmEngine(db, new MetricSource(new MetricsStore(db), new MetricDatapoints(db)), {
      clock: () => now,
      evaluationIntervalMs: 0,
    });
    expect(engine.get("dc-e-5xx")?.state).toBe("ALARM");
    engine.evaluateAll();
    expect(engine.get("dc-e-5xx")?.state).toBe("INSUFFICIENT_DATA");
  });
});

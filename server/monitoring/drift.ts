import {
  type CloudWatchClient,
  DescribeAlarmsCommand,
  type MetricAlarm,
  type MetricDatum,
  PutMetricAlarmCommand,
  PutMetricDataCommand,
} from "@aws-sdk/client-cloudwatch";
import { DRIFT_ALARM, DRIFT_SCHEDULE, type DriftKind, type DriftResponse } from "../../contract/endpoints/drift.ts";
import { DRIFT_METRICS } from "../../contract/stack/console-contract.ts";
import { awsCall } from "../aws/errors.ts";
import type { BackgroundTask } from "../background/background-work.ts";
import { AppError } from "../http/app-error.ts";
import { chunks } from "../store/chunks.ts";
import { acquireLease, replicaId } from "../store/leases.ts";
import type { Store } from "../store/store.ts";
import { jensenShannonDistance, samplingNoiseDistance } from "./drift-score.ts";
import {
  allBaselines,
  baselineWindowEnd,
  type DriftBaseline,
  endpointBaselines,
  kindHistograms,
} from "./drift-store.ts";
import { decisionKinds } from "./monitoring-store.ts";

/** A kind's drift over the window ending at `now`: both distances, and what sampling alone would make of them. */
export async function currentDrift(
  store: Store,
  baseline: DriftBaseline,
  now: Date,
): Promise<NonNullable<DriftKind["current"]>> {
  const toMs = now.getTime();
  // Decisions of the baseline's own window are not compared with themselves (a distance of 0 would hide drift):
  // the window starts at the baseline's end at the earliest, and holds no decisions while that is still ahead.
  const fromMs = Math.min(
    toMs,
    Math.max(toMs - DRIFT_SCHEDULE.windowSeconds * 1000, baselineWindowEnd(baseline) ?? Number.NEGATIVE_INFINITY),
  );
  const current = await kindHistograms(store, baseline.endpointName, baseline.kind, baseline.options, fromMs, toMs);
  const bins = (a: readonly number[], b: readonly number[]) => a.filter((count, i) => count + (b[i] ?? 0) > 0).length;
  const noise = (a: readonly number[], b: readonly number[]) =>
    current.decisions > 0 ? samplingNoiseDistance(bins(a, b), baseline.decisions, current.decisions) : null;
  return {
    from: new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    decisions: current.decisions,
    optionMix: jensenShannonDistance(baseline.optionCounts, current.optionCounts),
    confidence: jensenShannonDistance(baseline.topBins, current.topBins),
    noise: {
      optionMix: noise(baseline.optionCounts, current.optionCounts),
      confidence: noise(baseline.topBins, current.topBins),
    },
  };
}

const dimensions = (baseline: Pick<DriftBaseline, "endpointName" | "kind">) => [
  { Name: "EndpointName", Value: baseline.endpointName },
  { Name: "DecisionKind", Value: baseline.kind },
];

/**
 * What publishing drift needs. It scores what the store holds: the background capture reader (capture-reading.ts)
 * keeps that current every few seconds, page open or closed, so the publisher reads no capture object itself.
 */
export interface DriftPublisherDeps {
  store: Store;
  cloudWatch: CloudWatchClient;
}

/**
 * One round of the schedule: each baselined kind's drift over the last hour, published as `OptionMixDrift` and
 * `ConfidenceDrift` (namespace `DecisionConsole/Monitoring`, dimensions EndpointName and DecisionKind) at `now`. A
 * kind with no decisions in the window publishes nothing (its alarm sees missing data). Returns what it published.
 */
export async function publishDrift(deps: DriftPublisherDeps, now = new Date()) {
  const baselines = await allBaselines(deps.store);
  const published: { endpointName: string; kind: string; optionMix: number; confidence: number }[] = [];
  const byEndpoint = new Map<string, DriftBaseline[]>();
  for (const baseline of baselines)
    byEndpoint.set(baseline.endpointName, [...(byEndpoint.get(baseline.endpointName) ?? []), baseline]);
  for (const [endpointName, kinds] of byEndpoint) {
    const data: MetricDatum[] = [];
    for (const baseline of kinds) {
      const drift = await currentDrift(deps.store, baseline, now);
      if (drift.optionMix === null || drift.confidence === null) continue;
      published.push({ endpointName, kind: baseline.kind, optionMix: drift.optionMix, confidence: drift.confidence });
      for (const [name, value] of [
        [DRIFT_METRICS.optionMix, drift.optionMix],
        [DRIFT_METRICS.confidence, drift.confidence],
      ] as const) {
        data.push({ MetricName: name, Dimensions: dimensions(baseline), Timestamp: now, Value: value, Unit: "None" });
      }
    }
    // PutMetricData takes at most 1000 metric data items; an endpoint has a few kinds, two items each.
    for (let i = 0; i < data.length; i += 1000) {
      await awsCall("drift metrics", () =>
        deps.cloudWatch.send(
          new PutMetricDataCommand({ Namespace: DRIFT_METRICS.namespace, MetricData: data.slice(i, i + 1000) }),
        ),
      );
    }
  }
  return published;
}

/** The alarm of one drift metric of a kind: named with the endpoint's name, so the console's alarm policy covers it. */
export const driftAlarmName = (endpointName: string, kind: string, metricName: string) =>
  `${endpointName}-drift-${kind}-${metricName}`;

/** DescribeAlarms takes at most 100 AlarmNames (CloudWatch API Reference, DescribeAlarms: "Maximum number of 100 items"). */
const DESCRIBE_ALARMS_MAX_NAMES = 100;

const DRIFT_ALARM_METRICS = [DRIFT_METRICS.optionMix, DRIFT_METRICS.confidence] as const;

/** The kinds the console knows on the endpoint: those it captured decisions of and those with a baseline. */
async function knownKinds(store: Store, endpointName: string): Promise<Set<string>> {
  const baselined = (await endpointBaselines(store, endpointName)).map((baseline) => baseline.kind);
  return new Set([...baselined, ...(await decisionKinds(store, endpointName)).keys()]);
}

/**
 * Creates or updates both alarms of a kind at `threshold`: Maximum over 5-minute periods, ALARM when 2 of the last
 * 3 are above it (a single noisy round does not page), INSUFFICIENT_DATA while no drift is published. Only for a kind
 * the console knows on the endpoint: the alarms are listed again by the names the store's kinds give (driftView).
 */
export async function putDriftAlarms(
  cloudWatch: CloudWatchClient,
  store: Store,
  endpointName: string,
  kind: string,
  threshold: number,
) {
  if (!(await knownKinds(store, endpointName)).has(kind)) {
    throw new AppError(
      "not_found",
      `Endpoint "${endpointName}" has captured no decisions of kind ${kind} and has no baseline for it: set alarms on a kind it serves.`,
    );
  }
  for (const metricName of DRIFT_ALARM_METRICS) {
    await awsCall("drift alarm", () =>
      cloudWatch.send(
        new PutMetricAlarmCommand({
          AlarmName: driftAlarmName(endpointName, kind, metricName),
          AlarmDescription: `Decision drift (${metricName}, Jensen–Shannon distance) of kind ${kind} on ${endpointName}, set from the console's Monitoring page.`,
          Namespace: DRIFT_METRICS.namespace,
          MetricName: metricName,
          Dimensions: dimensions({ endpointName, kind }),
          Statistic: "Maximum",
          Period: DRIFT_ALARM.periodSeconds,
          EvaluationPeriods: DRIFT_ALARM.evaluationPeriods,
          DatapointsToAlarm: DRIFT_ALARM.datapointsToAlarm,
          Threshold: threshold,
          ComparisonOperator: "GreaterThanThreshold",
          TreatMissingData: "missing",
        }),
      ),
    );
  }
}

/**
 * The drift alarms of the kinds, asked by name (at most 100 a call): a policy scoped to `alarm:<prefix>*` certainly
 * covers each name, where whether CloudWatch authorises an AlarmNamePrefix listing against the prefix is not
 * documented.
 */
async function driftAlarms(cloudWatch: CloudWatchClient, endpointName: string, kinds: Iterable<string>) {
  const names = [...kinds].flatMap((kind) =>
    DRIFT_ALARM_METRICS.map((metric) => driftAlarmName(endpointName, kind, metric)),
  );
  const alarms: MetricAlarm[] = [];
  for (const batch of chunks(names, DESCRIBE_ALARMS_MAX_NAMES)) {
    let nextToken: string | undefined;
    do {
      const page = await awsCall("drift alarms", () =>
        cloudWatch.send(
          new DescribeAlarmsCommand({ AlarmNames: batch, AlarmTypes: ["MetricAlarm"], NextToken: nextToken }),
        ),
      );
      alarms.push(...(page.MetricAlarms ?? []));
      nextToken = page.NextToken;
    } while (nextToken);
  }
  return alarms;
}

/**
 * The endpoint's baselines, each kind's drift over the last hour and its alarms with their states; a kind with
 * alarms but no baseline yet is listed too (its alarms stay INSUFFICIENT_DATA: nothing is published for it).
 */
export async function driftView(
  cloudWatch: CloudWatchClient,
  store: Store,
  endpointName: string,
  now = new Date(),
): Promise<DriftResponse> {
  const baselines = new Map(
    (await endpointBaselines(store, endpointName)).map((baseline) => [baseline.kind, baseline]),
  );
  const captured = await decisionKinds(store, endpointName);
  const alarms = await driftAlarms(cloudWatch, endpointName, new Set([...baselines.keys(), ...captured.keys()]));
  const alarmed = [...captured.keys()].filter((kind) =>
    DRIFT_ALARM_METRICS.some((metric) =>
      alarms.some((a) => a.AlarmName === driftAlarmName(endpointName, kind, metric)),
    ),
  );
  const kinds = [...new Set([...baselines.keys(), ...alarmed])].sort();
  const currents = new Map<string, NonNullable<DriftKind["current"]>>();
  for (const baseline of baselines.values()) currents.set(baseline.kind, await currentDrift(store, baseline, now));
  return {
    endpointName,
    namespace: DRIFT_METRICS.namespace,
    publishEverySeconds: DRIFT_SCHEDULE.publishEverySeconds,
    windowSeconds: DRIFT_SCHEDULE.windowSeconds,
    kinds: kinds.map((kind): DriftKind => {
      const baseline = baselines.get(kind);
      const known = baseline ?? captured.get(kind);
      return {
        kind,
        question: known?.question ?? "",
        options: known?.options ?? [],
        baseline: baseline
          ? { source: baseline.source, decisions: baseline.decisions, setBy: baseline.setBy, setAt: baseline.setAt }
          : null,
        current: currents.get(kind) ?? null,
        alarms: DRIFT_ALARM_METRICS.flatMap((metricName) => {
          const alarm = alarms.find((a) => a.AlarmName === driftAlarmName(endpointName, kind, metricName));
          return alarm
            ? [
                {
                  name: alarm.AlarmName ?? "",
                  metricName,
                  threshold: alarm.Threshold ?? 0,
                  state: alarm.StateValue ?? "INSUFFICIENT_DATA",
                  stateReason: alarm.StateReason ?? "",
                },
              ]
            : [];
        }),
      };
    }),
  };
}

/** The lease on publishing drift: one console replica publishes, so CloudWatch gets each point once. */
export const DRIFT_PUBLISHER_LEASE = "drift-publisher";

/**
 * The schedule, as background work (server/background/): `publishDrift` every 5 minutes by the one replica that
 * holds the publisher's lease. Each round renews it for two periods, so a replica that dies is replaced by another
 * within 10 minutes; a failed round is logged and the next round tries again.
 */
export function driftPublishing(deps: () => DriftPublisherDeps, holder: string = replicaId()): BackgroundTask {
  const everyMs = DRIFT_SCHEDULE.publishEverySeconds * 1000;
  return {
    name: "drift publishing",
    everyMs,
    async round() {
      const current = deps();
      if (!(await acquireLease(current.store, DRIFT_PUBLISHER_LEASE, holder, 2 * everyMs))) return;
      await publishDrift(current);
    },
  };
}

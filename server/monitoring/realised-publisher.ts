import {
  type CloudWatchClient,
  type MetricDatum,
  PutMetricAlarmCommand,
  PutMetricDataCommand,
} from "@aws-sdk/client-cloudwatch";
import { REALISED_METRICS } from "../../contract/stack/console-contract.ts";
import { awsCall } from "../aws/errors.ts";
import type { BackgroundTask } from "../background/background-work.ts";
import { acquireLease, replicaId } from "../store/leases.ts";
import { endpointRealisedQuality } from "./endpoint-realised-quality.ts";
import type { GroundTruthDeps } from "./ground-truth.ts";

export interface RealisedPublisherDeps extends GroundTruthDeps {
  cloudWatch: CloudWatchClient;
}

/** How often realised quality is published: labels arrive late, so a quarter of an hour says all there is to say. */
export const REALISED_PUBLISH_EVERY_SECONDS = 900;

/** The realised-accuracy alarm of a kind: named with the endpoint's name, so the console's alarm policy covers it. */
export const realisedAlarmName = (endpointName: string, kind: string) => `${endpointName}-realised-${kind}-accuracy`;

const dimensions = (endpointName: string, kind: string) => [
  { Name: "EndpointName", Value: endpointName },
  { Name: "DecisionKind", Value: kind },
];

/** The endpoints with labels: the ones realised quality has anything to say about. */
async function labelledEndpoints(deps: RealisedPublisherDeps): Promise<string[]> {
  const rows = await deps.store.selectFrom("ground_truth_labels").select("endpoint_name").distinct().execute();
  return rows.map((row) => row.endpoint_name).sort();
}

/**
 * ALARM when the shortfall (the evaluation's lower bound minus realised accuracy at the threshold) is above 0 in a
 * period; the shortfall is published only with enough labels, so with too few the alarm sees missing data.
 */
async function putRealisedAlarm(cloudWatch: CloudWatchClient, endpointName: string, kind: string) {
  await awsCall("realised-accuracy alarm", () =>
    cloudWatch.send(
      new PutMetricAlarmCommand({
        AlarmName: realisedAlarmName(endpointName, kind),
        AlarmDescription: `Realised accuracy at the threshold of kind ${kind} on ${endpointName} below the lower bound of the evaluation it was deployed with, set by the console.`,
        Namespace: REALISED_METRICS.namespace,
        MetricName: REALISED_METRICS.shortfall,
        Dimensions: dimensions(endpointName, kind),
        Statistic: "Maximum",
        Period: REALISED_PUBLISH_EVERY_SECONDS,
        EvaluationPeriods: 1,
        Threshold: 0,
        ComparisonOperator: "GreaterThanThreshold",
        TreatMissingData: "missing",
      }),
    ),
  );
}

/**
 * One round: each labelled endpoint's realised quality over the last 7 days, per kind with labels, published at
 * `now`; the alarm of a kind is put the first time its shortfall is published (`alarmsPut` remembers). Returns the
 * data published per endpoint.
 */
export async function publishRealised(
  deps: RealisedPublisherDeps,
  now = new Date(),
  alarmsPut: Set<string> = new Set(),
): Promise<Map<string, MetricDatum[]>> {
  const published = new Map<string, MetricDatum[]>();
  for (const endpointName of await labelledEndpoints(deps)) {
    let quality: Awaited<ReturnType<typeof endpointRealisedQuality>>;
    try {
      quality = await endpointRealisedQuality(deps, endpointName, { window: "7d" }, now);
    } catch (error) {
      console.error(
        JSON.stringify({ level: "error", msg: "cannot read realised quality", endpointName, error: String(error) }),
      );
      continue;
    }
    const data: MetricDatum[] = [];
    const datum = (kind: string, name: string, value: number | null) => {
      if (value !== null)
        data.push({
          MetricName: name,
          Dimensions: dimensions(endpointName, kind),
          Timestamp: now,
          Value: value,
          Unit: "None",
        });
    };
    for (const kind of quality.kinds) {
      if (kind.labelled === 0) continue;
      datum(kind.kind, REALISED_METRICS.accuracy, kind.accuracy.accuracy);
      datum(kind.kind, REALISED_METRICS.accuracyAtThreshold, kind.atThreshold.accuracy);
      datum(kind.kind, REALISED_METRICS.coverage, kind.coverage);
      datum(kind.kind, REALISED_METRICS.labelledShare, kind.labelledShare);
      const lower = kind.evaluation?.atThreshold.lower ?? null;
      if (kind.alarm.state === "INSUFFICIENT_DATA" || lower === null || kind.atThreshold.accuracy === null) continue;
      datum(kind.kind, REALISED_METRICS.shortfall, lower - kind.atThreshold.accuracy);
      const alarm = realisedAlarmName(endpointName, kind.kind);
      if (!alarmsPut.has(alarm)) {
        await putRealisedAlarm(deps.cloudWatch, endpointName, kind.kind);
        alarmsPut.add(alarm);
      }
    }
    // PutMetricData takes at most 1000 metric data items.
    for (let i = 0; i < data.length; i += 1000) {
      await awsCall("realised-quality metrics", () =>
        deps.cloudWatch.send(
          new PutMetricDataCommand({ Namespace: REALISED_METRICS.namespace, MetricData: data.slice(i, i + 1000) }),
        ),
      );
    }
    published.set(endpointName, data);
  }
  return published;
}

/** The lease on publishing realised quality: one console replica publishes, so CloudWatch gets each point once. */
export const REALISED_PUBLISHER_LEASE = "realised-publisher";

/** The schedule, as background work: `publishRealised` every 15 minutes by the replica holding the lease. */
export function realisedPublishing(deps: () => RealisedPublisherDeps, holder: string = replicaId()): BackgroundTask {
  const everyMs = REALISED_PUBLISH_EVERY_SECONDS * 1000;
  const alarmsPut = new Set<string>();
  return {
    name: "realised quality publishing",
    everyMs,
    async round() {
      const current = deps();
      if (!(await acquireLease(current.store, REALISED_PUBLISHER_LEASE, holder, 2 * everyMs))) return;
      await publishRealised(current, new Date(), alarmsPut);
    },
  };
}

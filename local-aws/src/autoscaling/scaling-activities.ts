import type { ScalingActivity } from "@aws-sdk/client-application-auto-scaling";
import type { Db } from "../database.ts";
import type { EndpointRunner } from "../endpoints/endpoint-runner.ts";
import type { SageMakerStore } from "../sagemaker-store.ts";
import type { OnTheWire } from "../wire/typed-operations.ts";
import type { TargetKey } from "./scaling-store.ts";

/** A scaling activity as DescribeScalingActivities returns it (times in epoch seconds). */
/** A scaling activity as DescribeScalingActivities returns it. */
export type ScalingActivityDoc = OnTheWire<ScalingActivity>;

export interface ScalingActivityDeps {
  db: Db;
  store: SageMakerStore;
  runner: EndpointRunner;
  /** Epoch milliseconds: the clock the alarms run on, so activities line up with the metrics that caused them. */
  clock: () => number;
}

/** "Scaling activities from the previous six weeks" (API reference): older ones are forgotten. */
const RETENTION_S = 42 * 24 * 3600;

function save(db: Db, doc: ScalingActivityDoc) {
  db.prepare(
    "INSERT INTO aas_activities (activity_id, namespace, resource_id, dimension, start_time, doc) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET doc = excluded.doc",
  ).run(
    doc.ActivityId,
    doc.ServiceNamespace,
    doc.ResourceId,
    doc.ScalableDimension,
    doc.StartTime,
    JSON.stringify(doc),
  );
}

/**
 * Sets a variant's desired instance count on behalf of Application Auto Scaling and records it as a scaling activity,
 * worded as the service words SageMaker's ("Setting desired instance count to N."): InProgress while the runner starts
 * or stops adapter processes, then Successful when the variant runs the count, Failed (with the runner's reason)
 * when it does not.
 */
export function scaleVariantRecorded(
  deps: ScalingActivityDeps,
  [namespace, resourceId, dimension]: TargetKey,
  endpoint: string,
  variant: string,
  desired: number,
  cause: string,
): Promise<void> {
  const { db, store, runner, clock } = deps;
  const activity: ScalingActivityDoc = {
    ActivityId: crypto.randomUUID(),
    ServiceNamespace: namespace,
    ResourceId: resourceId,
    ScalableDimension: dimension,
    Description: `Setting desired instance count to ${desired}.`,
    Cause: cause,
    StartTime: clock() / 1000,
    StatusCode: "InProgress",
  };
  db.prepare("DELETE FROM aas_activities WHERE start_time < ?").run(activity.StartTime - RETENTION_S);
  save(db, activity);
  store.updateEndpoint(endpoint, { status: "Updating" });
  return runner
    .update(endpoint, [{ VariantName: variant, DesiredInstanceCount: desired }])
    .then(() => {
      const record = store.endpoint(endpoint);
      const running = record?.variants.find((v) => v.VariantName === variant)?.CurrentInstanceCount;
      const fulfilled = running === desired;
      save(db, {
        ...activity,
        EndTime: clock() / 1000,
        StatusCode: fulfilled ? "Successful" : "Failed",
        StatusMessage: fulfilled
          ? `Successfully set desired instance count to ${desired}. Change successfully fulfilled by sagemaker.`
          : `Failed to set desired instance count to ${desired}. ${record?.failureReason ?? `The variant runs ${running ?? 0} instances.`}`,
      });
    })
    .catch(noRecord);
}

// The control plane closed its database while the variant was changing: the activity stays InProgress.
const noRecord = (error: unknown) =>
  console.error(JSON.stringify({ level: "error", msg: "scaling activity not recorded", error: String(error) }));

/** The activities of a namespace (optionally of one resource and dimension), newest first. */
export function readActivities(db: Db, namespace: string, resourceId?: string, dimension?: string) {
  const rows = db
    .prepare(
      "SELECT doc FROM aas_activities WHERE namespace = ? AND (? IS NULL OR resource_id = ?) AND (? IS NULL OR dimension = ?) ORDER BY start_time DESC, rowid DESC",
    )
    .all(namespace, resourceId ?? null, resourceId ?? null, dimension ?? null, dimension ?? null) as { doc: string }[];
  return rows.map((row) => JSON.parse(row.doc) as ScalingActivityDoc);
}

import type {
  ScalableDimension,
  ScalableTarget,
  ScalingPolicy,
  ServiceNamespace,
} from "@aws-sdk/client-application-auto-scaling";
import type { Db } from "../database.ts";
import type { OnTheWire } from "../wire/typed-operations.ts";

export type TargetKey = [namespace: ServiceNamespace, resourceId: string, dimension: ScalableDimension];

/** A scalable target as DescribeScalableTargets returns it, with its tags (kept for IAM's aws:ResourceTag). */
export type TargetDoc = OnTheWire<ScalableTarget> & { ScalableTargetARN: string; Tags?: Record<string, string> };

/** A scaling policy as DescribeScalingPolicies returns it. */
export type PolicyDoc = OnTheWire<ScalingPolicy> & { Alarms: { AlarmName: string; AlarmARN: string }[] };

export function readTarget(db: Db, k: TargetKey): TargetDoc | undefined {
  const row = db
    .prepare("SELECT doc FROM aas_targets WHERE namespace = ? AND resource_id = ? AND dimension = ?")
    .get(...k) as { doc: string } | undefined;
  return row ? (JSON.parse(row.doc) as TargetDoc) : undefined;
}

export function readPolicy(db: Db, k: TargetKey, name: string): PolicyDoc | undefined {
  const row = db
    .prepare("SELECT doc FROM aas_policies WHERE namespace = ? AND resource_id = ? AND dimension = ? AND name = ?")
    .get(...k, name) as { doc: string } | undefined;
  return row ? (JSON.parse(row.doc) as PolicyDoc) : undefined;
}

/** The policies of one target, or of every target when none is named. */
export function readPolicies(db: Db, k?: TargetKey): PolicyDoc[] {
  const rows = (
    k
      ? db.prepare("SELECT doc FROM aas_policies WHERE namespace = ? AND resource_id = ? AND dimension = ?").all(...k)
      : db.prepare("SELECT doc FROM aas_policies").all()
  ) as { doc: string }[];
  return rows.map((row) => JSON.parse(row.doc) as PolicyDoc);
}

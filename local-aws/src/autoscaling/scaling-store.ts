import type { Db } from "../database.ts";
import type { StepScalingConfiguration } from "./scaling-adjustment.ts";

export type TargetKey = [namespace: string, resourceId: string, dimension: string];

export interface TargetDoc {
  ServiceNamespace: string;
  ResourceId: string;
  ScalableDimension: string;
  MinCapacity: number;
  MaxCapacity: number;
  RoleARN?: string;
  SuspendedState?: { DynamicScalingInSuspended?: boolean; DynamicScalingOutSuspended?: boolean };
  CreationTime: number;
  ScalableTargetARN: string;
  /** The target's tags (ListTagsForResource's `Tags`), kept for IAM's aws:ResourceTag. */
  Tags?: Record<string, string>;
}

export interface CustomizedMetric {
  MetricName: string;
  Namespace: string;
  Dimensions?: { Name: string; Value: string }[];
  Statistic: string;
  Unit?: string;
}

export interface TargetTrackingConfiguration {
  TargetValue: number;
  PredefinedMetricSpecification?: unknown;
  CustomizedMetricSpecification?: CustomizedMetric;
  ScaleOutCooldown?: number;
  ScaleInCooldown?: number;
  DisableScaleIn?: boolean;
}

/** A scaling policy as DescribeScalingPolicies returns it. */
export interface PolicyDoc {
  PolicyARN: string;
  PolicyName: string;
  ServiceNamespace: string;
  ResourceId: string;
  ScalableDimension: string;
  PolicyType: string;
  TargetTrackingScalingPolicyConfiguration?: TargetTrackingConfiguration;
  StepScalingPolicyConfiguration?: StepScalingConfiguration;
  /** The CloudWatch alarms Application Auto Scaling created for a target-tracking policy. */
  Alarms: { AlarmName: string; AlarmARN: string }[];
  CreationTime: number;
}

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

import { ScalableDimension, ServiceNamespace } from "@aws-sdk/client-application-auto-scaling";
import type { StepAdjustment, StepScalingConfiguration } from "../autoscaling/scaling-adjustment.ts";
import type { ProductionVariantDoc } from "../sagemaker-store.ts";
import { AwsError } from "../wire/aws-error.ts";
import { validateInput } from "../wire/input-shapes.ts";

/**
 * What Application Auto Scaling's API reference says in prose about registering SageMaker variants, for the
 * operations local mode serves (their constraint traits are generated from the service model:
 * ../wire/generated/application-auto-scaling.ts).
 */

const VARIANT_RESOURCE = /^endpoint\/([^/]+)\/variant\/([^/]+)$/;

function invalid(message: string): AwsError {
  return new AwsError("ValidationException", message);
}

/** The endpoint and variant a SageMaker variant target names; other namespaces are not served locally. */
/** The one scalable target local mode serves, in the service model's own enum values. */
const VARIANT_SCALING = {
  serviceNamespace: ServiceNamespace.SAGEMAKER,
  scalableDimension: ScalableDimension.SageMakerVariantDesiredInstanceCount,
} as const;

export function variantOfTarget(namespace: string, resourceId: string, dimension: string) {
  if (namespace !== VARIANT_SCALING.serviceNamespace || dimension !== VARIANT_SCALING.scalableDimension) {
    throw invalid(
      `The local control plane scales ${VARIANT_SCALING.scalableDimension} of the sagemaker namespace only, not ${dimension} of ${namespace}.`,
    );
  }
  const match = VARIANT_RESOURCE.exec(resourceId);
  if (!match)
    throw invalid(`Unsupported resource ID ${resourceId}; use endpoint/<endpoint name>/variant/<variant name>.`);
  return { endpoint: match[1] as string, variant: match[2] as string };
}

/** "If you specify a scalable dimension, you must also specify a resource ID." (DescribeScalingActivities) */
export function checkActivitiesFilter(resourceId: string | undefined, dimension: string | undefined) {
  if (dimension !== undefined && resourceId === undefined) {
    throw invalid("If you specify a scalable dimension, you must also specify a resource ID.");
  }
}

/**
 * One page of a Describe operation's results. Its MaxResults, in the reference's prose (the model gives no range):
 * "This value can be between 1 and 50. The default value is 50." (DescribeScalableTargets, DescribeScalingActivities),
 * "between 1 and 10. The default value is 10." (DescribeScalingPolicies).
 */
export function resultsPage<T>(items: T[], input: { MaxResults?: unknown; NextToken?: unknown }, limit: 10 | 50) {
  validateInput({ type: "structure", members: { MaxResults: { type: "integer", min: 1, max: limit } } }, input);
  const max = typeof input.MaxResults === "number" ? input.MaxResults : limit;
  const token = typeof input.NextToken === "string" ? input.NextToken : undefined;
  const offset = token === undefined ? 0 : /^\d+$/.test(token) ? Number(token) : Number.NaN;
  if (!Number.isSafeInteger(offset) || offset > items.length) {
    throw new AwsError("InvalidNextTokenException", "The next token supplied is invalid.");
  }
  const slice = items.slice(offset, offset + max);
  return { slice, nextToken: offset + max < items.length ? String(offset + max) : undefined };
}

/**
 * A registration's capacities: a new target needs both; MinCapacity <= MaxCapacity; a real-time variant runs at
 * least one instance, an asynchronous endpoint's variant may scale to 0 ("Autoscale an asynchronous endpoint").
 */
export function registeredCapacity(
  input: { MinCapacity?: number; MaxCapacity?: number },
  previous: { MinCapacity: number; MaxCapacity: number } | undefined,
  asynchronous: boolean,
): { min: number; max: number } {
  const min = input.MinCapacity ?? previous?.MinCapacity;
  const max = input.MaxCapacity ?? previous?.MaxCapacity;
  if (min === undefined || max === undefined) {
    throw invalid("MinCapacity and MaxCapacity are required when registering a new scalable target.");
  }
  if (min < 1 && !asynchronous)
    throw invalid(`MinCapacity ${min} is not allowed for a real-time endpoint variant; the minimum is 1.`);
  if (max < min) throw invalid(`MaxCapacity (${max}) must be greater than or equal to MinCapacity (${min}).`);
  return { min, max };
}

interface PolicyInput {
  PolicyType?: string;
  TargetTrackingScalingPolicyConfiguration?: {
    PredefinedMetricSpecification?: unknown;
    CustomizedMetricSpecification?: { MetricName?: string; Namespace?: string; Statistic?: string };
  };
  StepScalingPolicyConfiguration?: StepScalingConfiguration;
}

/**
 * A policy's configuration as the API reference describes it: each type needs its own configuration; target tracking
 * names exactly one metric (a customized metric by MetricName, Namespace and Statistic: local mode evaluates no
 * metric math); step adjustments do not overlap or leave gaps, at most one has no lower bound and one no upper
 * bound; MinAdjustmentMagnitude goes with PercentChangeInCapacity only; ExactCapacity is never negative.
 */
export function checkScalingPolicy(input: PolicyInput) {
  const type = input.PolicyType ?? "StepScaling";
  if (type === "TargetTrackingScaling") {
    const tracking = input.TargetTrackingScalingPolicyConfiguration;
    if (!tracking) {
      throw invalid("TargetTrackingScalingPolicyConfiguration is required for TargetTrackingScaling policies.");
    }
    const customized = tracking.CustomizedMetricSpecification;
    if (Boolean(tracking.PredefinedMetricSpecification) === Boolean(customized)) {
      throw invalid(
        "Exactly one of PredefinedMetricSpecification and CustomizedMetricSpecification must be specified.",
      );
    }
    if (customized && (!customized.MetricName || !customized.Namespace || !customized.Statistic)) {
      throw invalid("CustomizedMetricSpecification needs MetricName, Namespace and Statistic.");
    }
    return;
  }
  if (type !== "StepScaling") return;
  const step = input.StepScalingPolicyConfiguration;
  if (!step) throw invalid("StepScalingPolicyConfiguration is required for StepScaling policies.");
  const steps = [...(step.StepAdjustments ?? [])];
  if (steps.length === 0) throw invalid("StepScalingPolicyConfiguration needs at least one step adjustment.");
  if (step.MinAdjustmentMagnitude !== undefined && step.AdjustmentType !== "PercentChangeInCapacity") {
    throw invalid("MinAdjustmentMagnitude is only supported with the PercentChangeInCapacity adjustment type.");
  }
  if (step.AdjustmentType === "ExactCapacity" && steps.some((s) => s.ScalingAdjustment < 0)) {
    throw invalid("The scaling adjustment of an ExactCapacity step must not be negative.");
  }
  const lower = (s: StepAdjustment) => s.MetricIntervalLowerBound ?? Number.NEGATIVE_INFINITY;
  const upper = (s: StepAdjustment) => s.MetricIntervalUpperBound ?? Number.POSITIVE_INFINITY;
  steps.sort((a, b) => lower(a) - lower(b));
  for (const [i, s] of steps.entries()) {
    if (lower(s) >= upper(s)) {
      throw invalid("The lower bound of a step adjustment must be less than its upper bound.");
    }
    const next = steps[i + 1];
    if (next && upper(s) !== lower(next)) {
      throw invalid("Step adjustments must not overlap or leave gaps between their intervals.");
    }
  }
}

/**
 * What "instance type" means for a variant: its InstanceType, or its pools' types in priority order (a move between
 * the two counts as a change: the guide does not say otherwise, and local mode is never more lenient than AWS).
 */
function instanceTypesOf(variant: ProductionVariantDoc): string {
  if (!variant.InstancePools?.length) return `type:${variant.InstanceType ?? ""}`;
  const types = [...variant.InstancePools].sort((a, b) => a.Priority - b.Priority).map((pool) => pool.InstanceType);
  return `pools:${types.join(",")}`;
}

/**
 * "Update endpoints that use auto scaling" (SageMaker developer guide): Application Auto Scaling fails an
 * UpdateEndpoint that would change the instance type of a variant registered as a scalable target, or remove such a
 * variant; a new model for it is allowed. The variants must be deregistered first and registered again after.
 */
export function checkUpdateOfScaledVariants(
  endpoint: string,
  scaledVariants: readonly string[],
  current: readonly ProductionVariantDoc[],
  next: readonly ProductionVariantDoc[],
): void {
  const refused = scaledVariants.filter((name) => {
    const before = current.find((v) => v.VariantName === name);
    const after = next.find((v) => v.VariantName === name);
    return before !== undefined && (after === undefined || instanceTypesOf(after) !== instanceTypesOf(before));
  });
  if (refused.length > 0) {
    throw invalid(
      `The variant(s) "[${refused.join(", ")}]" of endpoint "${endpoint}" are configured for automatic scaling; an update that changes their instance type or removes them is not allowed. Deregister the scalable target(s) with DeregisterScalableTarget before the update and register them again after it.`,
    );
  }
}

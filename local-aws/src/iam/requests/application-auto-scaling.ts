import { createHash } from "node:crypto";
import type { RequestContext } from "../conditions.ts";
import type { AuthorizationQuery } from "../evaluate.ts";
import { type OperationAuthorization, type RequestFacts, requestTagContext, resourceTagContext, str } from "./facts.ts";
import { sageMakerArn } from "./sagemaker.ts";

/** `application-autoscaling:service-namespace` and `:scalable-dimension`, which every target action sets. */
function targetKeys(input: Record<string, unknown>): RequestContext {
  return {
    "application-autoscaling:service-namespace": str(input.ServiceNamespace),
    "application-autoscaling:scalable-dimension": str(input.ScalableDimension),
  };
}

function onTarget(action: string, input: Record<string, unknown>, facts: RequestFacts, extra: RequestContext = {}) {
  const target = facts.scalableTarget(str(input.ServiceNamespace), str(input.ResourceId), str(input.ScalableDimension));
  // A target that is not registered has no ARN and no tags: only a policy on "*" can allow the call.
  const query: AuthorizationQuery = {
    action,
    resource: target?.arn ?? "*",
    context: { ...targetKeys(input), ...resourceTagContext(target?.tags ?? {}), ...extra },
  };
  return [query];
}

const tagsOf = (value: unknown): Record<string, string> | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, string>) : undefined;

/**
 * A target-tracking policy's caller needs the CloudWatch permissions for the alarms Application Auto Scaling
 * creates for it ("Permissions required for Application Auto Scaling API actions": DescribeAlarms, PutMetricAlarm,
 * DeleteAlarms), asked on the alarms' ARN, whose names begin `TargetTracking-<resource id>-`.
 */
function targetTrackingAlarmQueries(input: Record<string, unknown>, facts: RequestFacts): AuthorizationQuery[] {
  if (input.PolicyType !== "TargetTrackingScaling") return [];
  const resource = `arn:aws:cloudwatch:${facts.region}:${facts.accountId}:alarm:TargetTracking-${str(input.ResourceId)}-AlarmHigh`;
  return ["cloudwatch:DescribeAlarms", "cloudwatch:PutMetricAlarm", "cloudwatch:DeleteAlarms"].map((action) => ({
    action,
    resource,
    context: {},
  }));
}

/**
 * What Application Auto Scaling checks the caller may do on a SageMaker variant before it acts on the variant's
 * target: "To successfully configure and use Application Auto Scaling with the target service, end users must be
 * granted permissions for Amazon CloudWatch and for each target service" (Identity-based policy examples, SageMaker
 * endpoints: sagemaker:DescribeEndpoint, sagemaker:DescribeEndpointConfig, sagemaker:UpdateEndpointWeightsAndCapacities),
 * and "Application Auto Scaling validates permissions for requests associated with both the target service and
 * CloudWatch before proceeding with the request" (Permissions validation for API calls on target resources). Asked on
 * the variant's endpoint and, when it has one, the endpoint's configuration.
 */
export function variantTargetServiceQueries(
  facts: RequestFacts,
  endpointName: string,
  endpointConfigName: string | undefined,
): AuthorizationQuery[] {
  const on = (action: string, kind: "endpoint" | "endpoint-config", name: string): AuthorizationQuery => {
    const resource = sageMakerArn(facts, kind, name);
    return { action, resource, context: resourceTagContext(facts.sageMakerTags(resource), "sagemaker") };
  };
  return [
    on("sagemaker:DescribeEndpoint", "endpoint", endpointName),
    ...(endpointConfigName ? [on("sagemaker:DescribeEndpointConfig", "endpoint-config", endpointConfigName)] : []),
    on("sagemaker:UpdateEndpointWeightsAndCapacities", "endpoint", endpointName),
  ];
}

/**
 * Application Auto Scaling: target actions on the scalable target's ARN (an opaque id, known once registered),
 * with the namespace and dimension keys; a registration's Tags as aws:RequestTag.
 */
export const applicationAutoScalingAuthorization: Record<string, OperationAuthorization> = {
  RegisterScalableTarget(input, facts) {
    const tags = requestTagContext(tagsOf(input.Tags));
    const existing = facts.scalableTarget(
      str(input.ServiceNamespace),
      str(input.ResourceId),
      str(input.ScalableDimension),
    );
    if (existing) return onTarget("application-autoscaling:RegisterScalableTarget", input, facts, tags);
    return [
      {
        action: "application-autoscaling:RegisterScalableTarget",
        resource: newScalableTargetArn(facts, input),
        context: { ...targetKeys(input), ...tags },
      },
    ];
  },
  DeregisterScalableTarget: (input, facts) =>
    onTarget("application-autoscaling:DeregisterScalableTarget", input, facts),
  PutScalingPolicy: (input, facts) => [
    ...onTarget("application-autoscaling:PutScalingPolicy", input, facts),
    ...targetTrackingAlarmQueries(input, facts),
  ],
  DeleteScalingPolicy: (input, facts) => onTarget("application-autoscaling:DeleteScalingPolicy", input, facts),
  DescribeScalableTargets: () => [
    { action: "application-autoscaling:DescribeScalableTargets", resource: "*", context: {} },
  ],
  DescribeScalingActivities: () => [
    { action: "application-autoscaling:DescribeScalingActivities", resource: "*", context: {} },
  ],
  DescribeScalingPolicies: () => [
    { action: "application-autoscaling:DescribeScalingPolicies", resource: "*", context: {} },
  ],
};

/**
 * The ARN a target gets when registered. AWS's ids are opaque; locally the id is derived from the target's key so
 * that a registration can be authorised before it is stored.
 */
export function newScalableTargetArn(facts: RequestFacts, input: Record<string, unknown>): string {
  return scalableTargetArn(
    facts.region,
    facts.accountId,
    str(input.ServiceNamespace),
    str(input.ResourceId),
    str(input.ScalableDimension),
  );
}

export function scalableTargetArn(
  region: string,
  accountId: string,
  namespace: string,
  resourceId: string,
  dimension: string,
): string {
  const id = createHash("sha256").update(`${namespace}\0${resourceId}\0${dimension}`).digest("hex").slice(0, 36);
  return `arn:aws:application-autoscaling:${region}:${accountId}:scalable-target/${id}`;
}

import {
  type ApplicationAutoScalingClient,
  DeleteScalingPolicyCommand,
  DeregisterScalableTargetCommand,
  DescribeScalableTargetsCommand,
  DescribeScalingPoliciesCommand,
  PutScalingPolicyCommand,
  RegisterScalableTargetCommand,
} from "@aws-sdk/client-application-auto-scaling";
import type { Autoscaling, AutoscalingRequest } from "../../contract/endpoints/autoscaling.ts";
import { awsCall, toAwsAppError } from "../aws/errors.ts";

const serviceNamespace = "sagemaker";
const scalableDimension = "sagemaker:variant:DesiredInstanceCount";

export function variantResourceId(endpointName: string, variant: string): string {
  return `endpoint/${endpointName}/variant/${variant}`;
}

export function invocationsPolicyName(endpointName: string): string {
  return `${endpointName}-invocations-per-instance`;
}

/** Registers the variant's instance count as a scalable target and tracks invocations per instance. */
export async function configureAutoscaling(
  autoScaling: ApplicationAutoScalingClient,
  endpointName: string,
  variant: string,
  request: AutoscalingRequest,
): Promise<Autoscaling> {
  const target = {
    ServiceNamespace: serviceNamespace,
    ResourceId: variantResourceId(endpointName, variant),
    ScalableDimension: scalableDimension,
  } as const;
  await awsCall(`autoscaling of "${endpointName}"`, () =>
    autoScaling.send(
      new RegisterScalableTargetCommand({
        ...target,
        MinCapacity: request.minCapacity,
        MaxCapacity: request.maxCapacity,
      }),
    ),
  );
  await awsCall(`autoscaling policy of "${endpointName}"`, () =>
    autoScaling.send(
      new PutScalingPolicyCommand({
        ...target,
        PolicyName: invocationsPolicyName(endpointName),
        PolicyType: "TargetTrackingScaling",
        TargetTrackingScalingPolicyConfiguration: {
          TargetValue: request.targetInvocationsPerInstance,
          PredefinedMetricSpecification: { PredefinedMetricType: "SageMakerVariantInvocationsPerInstance" },
          ScaleInCooldown: request.scaleInCooldownSeconds,
          ScaleOutCooldown: request.scaleOutCooldownSeconds,
          DisableScaleIn: request.scaleInDisabled,
        },
      }),
    ),
  );
  return {
    minCapacity: request.minCapacity,
    maxCapacity: request.maxCapacity,
    targetInvocationsPerInstance: request.targetInvocationsPerInstance,
    scaleInDisabled: request.scaleInDisabled,
    scaleInCooldownSeconds: request.scaleInCooldownSeconds,
    scaleOutCooldownSeconds: request.scaleOutCooldownSeconds,
  };
}

/** The variant's scalable target and target-tracking policy, or null when none is registered. */
export async function describeAutoscaling(
  autoScaling: ApplicationAutoScalingClient,
  endpointName: string,
  variant: string,
): Promise<Autoscaling | null> {
  const resourceId = variantResourceId(endpointName, variant);
  const targets = await awsCall(`autoscaling of "${endpointName}"`, () =>
    autoScaling.send(
      new DescribeScalableTargetsCommand({
        ServiceNamespace: serviceNamespace,
        ResourceIds: [resourceId],
        ScalableDimension: scalableDimension,
      }),
    ),
  );
  const target = targets.ScalableTargets?.[0];
  if (!target) return null;
  const policies = await awsCall(`autoscaling policy of "${endpointName}"`, () =>
    autoScaling.send(
      new DescribeScalingPoliciesCommand({
        ServiceNamespace: serviceNamespace,
        ResourceId: resourceId,
        ScalableDimension: scalableDimension,
      }),
    ),
  );
  const tracking = policies.ScalingPolicies?.find(
    (p) =>
      p.PolicyType === "TargetTrackingScaling" &&
      p.TargetTrackingScalingPolicyConfiguration?.PredefinedMetricSpecification?.PredefinedMetricType ===
        "SageMakerVariantInvocationsPerInstance",
  )?.TargetTrackingScalingPolicyConfiguration;
  return {
    minCapacity: target.MinCapacity ?? 0,
    maxCapacity: target.MaxCapacity ?? 0,
    targetInvocationsPerInstance: tracking?.TargetValue ?? null,
    scaleInDisabled: tracking?.DisableScaleIn ?? false,
    scaleInCooldownSeconds: tracking?.ScaleInCooldown ?? null,
    scaleOutCooldownSeconds: tracking?.ScaleOutCooldown ?? null,
  };
}

/** Removes the policy and the scalable target; succeeds when there was none. */
export async function removeAutoscaling(
  autoScaling: ApplicationAutoScalingClient,
  endpointName: string,
  variant: string,
): Promise<void> {
  const target = {
    ServiceNamespace: serviceNamespace,
    ResourceId: variantResourceId(endpointName, variant),
    ScalableDimension: scalableDimension,
  } as const;
  for (const send of [
    () =>
      autoScaling.send(new DeleteScalingPolicyCommand({ ...target, PolicyName: invocationsPolicyName(endpointName) })),
    () => autoScaling.send(new DeregisterScalableTargetCommand(target)),
  ]) {
    try {
      await send();
    } catch (error) {
      const mapped = toAwsAppError(error, `autoscaling of "${endpointName}"`);
      if (mapped.status !== 404) throw mapped;
    }
  }
}

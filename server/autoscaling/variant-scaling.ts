import {
  type ApplicationAutoScalingClient,
  DeleteScalingPolicyCommand,
  DeregisterScalableTargetCommand,
  DescribeScalableTargetsCommand,
  DescribeScalingPoliciesCommand,
  PutScalingPolicyCommand,
  RegisterScalableTargetCommand,
} from "@aws-sdk/client-application-auto-scaling";
import {
  type Autoscaling,
  type AutoscalingRequest,
  autoscalingRequestSchema,
} from "../../contract/endpoints/autoscaling.ts";
import { CONSOLE_SCALABLE_TARGET_TAG, SAGEMAKER_VARIANT_SCALING } from "../../infra/cdk/console-contract.ts";
import { awsCall, toAwsAppError } from "../aws/errors.ts";

const { serviceNamespace, scalableDimension } = SAGEMAKER_VARIANT_SCALING;

export function variantResourceId(endpointName: string, variant: string): string {
  return `endpoint/${endpointName}/variant/${variant}`;
}

export function invocationsPolicyName(endpointName: string): string {
  return `${endpointName}-invocations-per-instance`;
}

/** Registers the variant's instance count as a scalable target, tagged as the console's; the target's key. */
async function registerTarget(
  autoScaling: ApplicationAutoScalingClient,
  endpointName: string,
  variant: string,
  minCapacity: number,
  maxCapacity: number,
) {
  const target = {
    ServiceNamespace: serviceNamespace,
    ResourceId: variantResourceId(endpointName, variant),
    ScalableDimension: scalableDimension,
  } as const;
  await awsCall(`autoscaling of "${endpointName}"`, () =>
    autoScaling.send(
      new RegisterScalableTargetCommand({
        ...target,
        MinCapacity: minCapacity,
        MaxCapacity: maxCapacity,
        Tags: { [CONSOLE_SCALABLE_TARGET_TAG.key]: CONSOLE_SCALABLE_TARGET_TAG.value },
      }),
    ),
  );
  return target;
}

/**
 * Registers the variant's instance count as a scalable target, tagged as the console's (its IAM policy lets it
 * change only tagged targets), and tracks invocations per instance.
 */
export async function configureAutoscaling(
  autoScaling: ApplicationAutoScalingClient,
  endpointName: string,
  variant: string,
  request: AutoscalingRequest,
): Promise<Autoscaling> {
  const target = await registerTarget(autoScaling, endpointName, variant, request.minCapacity, request.maxCapacity);
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

/**
 * Removes the policy and the scalable target; succeeds when there was none. It asks first (Describe* is allowed on
 * "*"), because the console's policy lets it change only targets that exist and carry its tag: a Delete on a target
 * that is not there could be refused as AccessDenied rather than answered "not found".
 */
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
  const registered = await awsCall(`autoscaling of "${endpointName}"`, () =>
    autoScaling.send(
      new DescribeScalableTargetsCommand({
        ServiceNamespace: serviceNamespace,
        ResourceIds: [target.ResourceId],
        ScalableDimension: scalableDimension,
      }),
    ),
  );
  if (!registered.ScalableTargets?.length) return;
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

/** Registers again what `describeAutoscaling` read before a removal: the same bounds and target-tracking policy. */
export async function restoreAutoscaling(
  autoScaling: ApplicationAutoScalingClient,
  endpointName: string,
  variant: string,
  saved: Autoscaling,
): Promise<void> {
  if (saved.targetInvocationsPerInstance === null) {
    await registerTarget(autoScaling, endpointName, variant, saved.minCapacity, saved.maxCapacity);
    return;
  }
  await configureAutoscaling(
    autoScaling,
    endpointName,
    variant,
    autoscalingRequestSchema.parse({
      minCapacity: saved.minCapacity,
      maxCapacity: saved.maxCapacity,
      targetInvocationsPerInstance: saved.targetInvocationsPerInstance,
      scaleInDisabled: saved.scaleInDisabled,
      scaleInCooldownSeconds: saved.scaleInCooldownSeconds ?? undefined,
      scaleOutCooldownSeconds: saved.scaleOutCooldownSeconds ?? undefined,
    }),
  );
}

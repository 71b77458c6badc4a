import {
  type ApplicationAutoScalingClient,
  DeleteScalingPolicyCommand,
  DeregisterScalableTargetCommand,
  DescribeScalableTargetsCommand,
  DescribeScalingPoliciesCommand,
  PutScalingPolicyCommand,
  RegisterScalableTargetCommand,
} from "@aws-sdk/client-application-auto-scaling";
import type { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import {
  type Autoscaling,
  type AutoscalingRequest,
  autoscalingRequestSchema,
} from "../../contract/endpoints/autoscaling.ts";
import { CONSOLE_SCALABLE_TARGET_TAG, SAGEMAKER_VARIANT_SCALING } from "../../contract/stack/console-contract.ts";
import { awsCall, toAwsAppError } from "../aws/errors.ts";
import { AppError } from "../http/app-error.ts";
import {
  backlogPolicyName,
  deleteWakeAlarm,
  putScaleToZeroPolicies,
  scaleToZeroOf,
  wakePolicyName,
} from "./scale-to-zero.ts";

const { serviceNamespace, scalableDimension } = SAGEMAKER_VARIANT_SCALING;

export function variantResourceId(endpointName: string, variant: string): string {
  return `endpoint/${endpointName}/variant/${variant}`;
}

export function invocationsPolicyName(endpointName: string): string {
  return `${endpointName}-invocations-per-instance`;
}

export interface ScalingClients {
  autoScaling: ApplicationAutoScalingClient;
  cloudWatch: CloudWatchClient;
}

function targetOf(endpointName: string, variant: string) {
  return {
    ServiceNamespace: serviceNamespace,
    ResourceId: variantResourceId(endpointName, variant),
    ScalableDimension: scalableDimension,
  } as const;
}

/** Registers the variant's instance count as a scalable target, tagged as the console's; the target's key. */
async function registerTarget(
  autoScaling: ApplicationAutoScalingClient,
  endpointName: string,
  variant: string,
  minCapacity: number,
  maxCapacity: number,
) {
  const target = targetOf(endpointName, variant);
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
 * change only tagged targets), then either tracks invocations per instance or, with scaleToZero, puts the
 * scale-to-zero policies and alarm (scale-to-zero.ts); the other mode's policies and alarm are removed. A step that
 * fails after the registration undoes the change (undoAutoscaling): the variant's autoscaling is as it was before,
 * or the error says what is left.
 */
export async function configureAutoscaling(
  clients: ScalingClients,
  endpointName: string,
  variant: string,
  request: AutoscalingRequest,
): Promise<Autoscaling> {
  const before = await describeAutoscaling(clients.autoScaling, endpointName, variant);
  let registered = false;
  try {
    return await applyAutoscaling(clients, endpointName, variant, request, () => {
      registered = true;
    });
  } catch (error) {
    if (!registered) throw error;
    throw await undoAutoscaling(clients, endpointName, variant, before, toAwsAppError(error));
  }
}

/**
 * After `failure` part-way through a change: the autoscaling read before it registered again (or, where there was
 * none, the target removed); the failure, saying whether the undo worked.
 */
async function undoAutoscaling(
  clients: ScalingClients,
  endpointName: string,
  variant: string,
  before: Autoscaling | null,
  failure: AppError,
): Promise<AppError> {
  try {
    if (before) await restoreAutoscaling(clients, endpointName, variant, before);
    else await removeAutoscaling(clients, endpointName, variant);
  } catch (undo) {
    return new AppError(
      failure.code,
      `${failure.message} Undoing the change failed too (${toAwsAppError(undo).message}): the scalable target of "${endpointName}" may be left registered with the new bounds and only some of its policies; save the autoscaling again or turn it off.`,
      failure.details,
    );
  }
  const undone = before ? "its previous autoscaling was registered again" : "the scalable target was removed again";
  return new AppError(failure.code, `${failure.message} Nothing was changed: ${undone}.`, failure.details);
}

async function applyAutoscaling(
  clients: ScalingClients,
  endpointName: string,
  variant: string,
  request: AutoscalingRequest,
  onRegistered: () => void,
): Promise<Autoscaling> {
  const { autoScaling } = clients;
  const target = await registerTarget(autoScaling, endpointName, variant, request.minCapacity, request.maxCapacity);
  onRegistered();
  if (request.scaleToZero) {
    await putScaleToZeroPolicies(clients, endpointName, target, request);
    await deletePolicies(autoScaling, endpointName, variant, [invocationsPolicyName(endpointName)]);
  } else {
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
    await deletePolicies(autoScaling, endpointName, variant, [
      backlogPolicyName(endpointName),
      wakePolicyName(endpointName),
    ]);
    await deleteWakeAlarm(clients.cloudWatch, endpointName);
  }
  return {
    minCapacity: request.minCapacity,
    maxCapacity: request.maxCapacity,
    targetInvocationsPerInstance: request.scaleToZero ? null : (request.targetInvocationsPerInstance ?? null),
    scaleInDisabled: request.scaleInDisabled,
    scaleInCooldownSeconds: request.scaleInCooldownSeconds,
    scaleOutCooldownSeconds: request.scaleOutCooldownSeconds,
    scaleToZero: request.scaleToZero,
    targetBacklogPerInstance: request.scaleToZero ? request.targetBacklogPerInstance : null,
  };
}

function describePolicies(autoScaling: ApplicationAutoScalingClient, endpointName: string, variant: string) {
  return awsCall(`autoscaling policy of "${endpointName}"`, () =>
    autoScaling.send(
      new DescribeScalingPoliciesCommand({
        ServiceNamespace: serviceNamespace,
        ResourceId: variantResourceId(endpointName, variant),
        ScalableDimension: scalableDimension,
      }),
    ),
  );
}

/** Deletes those of the named policies that exist (Describe first: a Delete of nothing could read as AccessDenied). */
async function deletePolicies(
  autoScaling: ApplicationAutoScalingClient,
  endpointName: string,
  variant: string,
  names: string[],
) {
  const described = await describePolicies(autoScaling, endpointName, variant);
  const present = (described.ScalingPolicies ?? []).filter((p) => p.PolicyName && names.includes(p.PolicyName));
  for (const policy of present) {
    await awsCall(`autoscaling policy of "${endpointName}"`, () =>
      autoScaling.send(
        new DeleteScalingPolicyCommand({ ...targetOf(endpointName, variant), PolicyName: policy.PolicyName }),
      ),
    );
  }
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
  const policies = await describePolicies(autoScaling, endpointName, variant);
  const tracking = policies.ScalingPolicies?.find(
    (p) =>
      p.PolicyType === "TargetTrackingScaling" &&
      p.TargetTrackingScalingPolicyConfiguration?.PredefinedMetricSpecification?.PredefinedMetricType ===
        "SageMakerVariantInvocationsPerInstance",
  )?.TargetTrackingScalingPolicyConfiguration;
  const zero = scaleToZeroOf(endpointName, policies.ScalingPolicies ?? []);
  return {
    minCapacity: target.MinCapacity ?? 0,
    maxCapacity: target.MaxCapacity ?? 0,
    targetInvocationsPerInstance: tracking?.TargetValue ?? null,
    scaleInDisabled: tracking?.DisableScaleIn ?? false,
    scaleInCooldownSeconds: tracking?.ScaleInCooldown ?? zero.tracking?.ScaleInCooldown ?? null,
    scaleOutCooldownSeconds: tracking?.ScaleOutCooldown ?? zero.tracking?.ScaleOutCooldown ?? null,
    scaleToZero: zero.scaleToZero,
    targetBacklogPerInstance: zero.targetBacklogPerInstance,
  };
}

/**
 * Removes the policy and the scalable target; succeeds when there was none. It asks first (Describe* is allowed on
 * "*"), because the console's policy lets it change only targets that exist and carry its tag: a Delete on a target
 * that is not there could be refused as AccessDenied rather than answered "not found".
 */
export async function removeAutoscaling(clients: ScalingClients, endpointName: string, variant: string): Promise<void> {
  const { autoScaling } = clients;
  const target = targetOf(endpointName, variant);
  const registered = await awsCall(`autoscaling of "${endpointName}"`, () =>
    autoScaling.send(
      new DescribeScalableTargetsCommand({
        ServiceNamespace: serviceNamespace,
        ResourceIds: [target.ResourceId],
        ScalableDimension: scalableDimension,
      }),
    ),
  );
  if (registered.ScalableTargets?.length) {
    await deletePolicies(autoScaling, endpointName, variant, [
      invocationsPolicyName(endpointName),
      backlogPolicyName(endpointName),
      wakePolicyName(endpointName),
    ]);
    try {
      await autoScaling.send(new DeregisterScalableTargetCommand(target));
    } catch (error) {
      const mapped = toAwsAppError(error, `autoscaling of "${endpointName}"`);
      if (mapped.status !== 404) throw mapped;
    }
  }
  await deleteWakeAlarm(clients.cloudWatch, endpointName);
}

/** Registers again what `describeAutoscaling` read before a removal: the same bounds and the console's policies. */
export async function restoreAutoscaling(
  clients: ScalingClients,
  endpointName: string,
  variant: string,
  saved: Autoscaling,
): Promise<void> {
  if (saved.targetInvocationsPerInstance === null && !saved.scaleToZero) {
    await registerTarget(clients.autoScaling, endpointName, variant, saved.minCapacity, saved.maxCapacity);
    return;
  }
  await applyAutoscaling(
    clients,
    endpointName,
    variant,
    autoscalingRequestSchema.parse({
      minCapacity: saved.minCapacity,
      maxCapacity: saved.maxCapacity,
      targetInvocationsPerInstance: saved.targetInvocationsPerInstance ?? undefined,
      scaleInDisabled: saved.scaleInDisabled,
      scaleInCooldownSeconds: saved.scaleInCooldownSeconds ?? undefined,
      scaleOutCooldownSeconds: saved.scaleOutCooldownSeconds ?? undefined,
      scaleToZero: saved.scaleToZero,
      targetBacklogPerInstance: saved.targetBacklogPerInstance ?? undefined,
    }),
    () => undefined,
  );
}

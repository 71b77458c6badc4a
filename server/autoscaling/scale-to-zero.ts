import {
  type ApplicationAutoScalingClient,
  PutScalingPolicyCommand,
  type ScalingPolicy,
} from "@aws-sdk/client-application-auto-scaling";
import {
  type CloudWatchClient,
  DeleteAlarmsCommand,
  DescribeAlarmsCommand,
  PutMetricAlarmCommand,
} from "@aws-sdk/client-cloudwatch";
import type { AutoscalingRequest } from "../../contract/endpoints/autoscaling.ts";
import { wakeAlarm } from "../../contract/endpoints/scale-to-zero.ts";
import { awsCall } from "../aws/errors.ts";

/**
 * Scale to zero for an asynchronous endpoint, as SageMaker's guide "Autoscale an asynchronous endpoint" sets it up:
 * target tracking on ApproximateBacklogSizePerInstance (scales in to MinCapacity 0 when the queue is empty), and a
 * step policy that adds one instance when the HasBacklogWithoutCapacity alarm goes off (target tracking alone never
 * scales out of 0). Names carry the endpoint's name, so the console's IAM prefix covers them.
 */
export const backlogPolicyName = (endpointName: string) => `${endpointName}-backlog-per-instance`;
export const wakePolicyName = (endpointName: string) => `${endpointName}-wake-on-backlog`;
export const wakeAlarmName = (endpointName: string) => `${endpointName}-has-backlog-without-capacity`;

const SAGEMAKER = "AWS/SageMaker";

type Target = {
  ServiceNamespace: "sagemaker";
  ResourceId: string;
  ScalableDimension: "sagemaker:variant:DesiredInstanceCount";
};

/** Puts both policies and the wake-up alarm (the step policy's ARN as its action). */
export async function putScaleToZeroPolicies(
  clients: { autoScaling: ApplicationAutoScalingClient; cloudWatch: CloudWatchClient },
  endpointName: string,
  target: Target,
  request: AutoscalingRequest,
): Promise<void> {
  const dimensions = [{ Name: "EndpointName", Value: endpointName }];
  await awsCall(`autoscaling policy of "${endpointName}"`, () =>
    clients.autoScaling.send(
      new PutScalingPolicyCommand({
        ...target,
        PolicyName: backlogPolicyName(endpointName),
        PolicyType: "TargetTrackingScaling",
        TargetTrackingScalingPolicyConfiguration: {
          TargetValue: request.targetBacklogPerInstance,
          CustomizedMetricSpecification: {
            MetricName: "ApproximateBacklogSizePerInstance",
            Namespace: SAGEMAKER,
            Dimensions: dimensions,
            Statistic: "Average",
          },
          ScaleInCooldown: request.scaleInCooldownSeconds,
          ScaleOutCooldown: request.scaleOutCooldownSeconds,
        },
      }),
    ),
  );
  const wake = await awsCall(`autoscaling policy of "${endpointName}"`, () =>
    clients.autoScaling.send(
      new PutScalingPolicyCommand({
        ...target,
        PolicyName: wakePolicyName(endpointName),
        PolicyType: "StepScaling",
        StepScalingPolicyConfiguration: {
          AdjustmentType: "ChangeInCapacity",
          MetricAggregationType: "Average",
          Cooldown: request.scaleOutCooldownSeconds,
          StepAdjustments: [{ MetricIntervalLowerBound: 0, ScalingAdjustment: 1 }],
        },
      }),
    ),
  );
  await awsCall(`wake-up alarm of "${endpointName}"`, () =>
    clients.cloudWatch.send(
      new PutMetricAlarmCommand({
        AlarmName: wakeAlarmName(endpointName),
        AlarmDescription: `Wakes ${endpointName} when requests wait and no instance runs (Decision Console).`,
        MetricName: "HasBacklogWithoutCapacity",
        Namespace: SAGEMAKER,
        Statistic: "Average",
        Dimensions: dimensions,
        Period: wakeAlarm.periodSeconds,
        EvaluationPeriods: wakeAlarm.evaluationPeriods,
        DatapointsToAlarm: wakeAlarm.evaluationPeriods,
        Threshold: 1,
        ComparisonOperator: "GreaterThanOrEqualToThreshold",
        TreatMissingData: "missing",
        AlarmActions: [wake.PolicyARN ?? ""],
      }),
    ),
  );
}

/** Deletes the wake-up alarm if it is there (an alarm outlives the policy it acts on). */
export async function deleteWakeAlarm(cloudWatch: CloudWatchClient, endpointName: string): Promise<void> {
  const name = wakeAlarmName(endpointName);
  const found = await awsCall(`wake-up alarm of "${endpointName}"`, () =>
    cloudWatch.send(new DescribeAlarmsCommand({ AlarmNames: [name] })),
  );
  if (!found.MetricAlarms?.length) return;
  await awsCall(`wake-up alarm of "${endpointName}"`, () =>
    cloudWatch.send(new DeleteAlarmsCommand({ AlarmNames: [name] })),
  );
}

/** Whether the described policies are the scale-to-zero pair, and the backlog target they track. */
export function scaleToZeroOf(endpointName: string, policies: ScalingPolicy[]) {
  const backlog = policies.find((p) => p.PolicyName === backlogPolicyName(endpointName));
  const wake = policies.find((p) => p.PolicyName === wakePolicyName(endpointName));
  return {
    scaleToZero: Boolean(backlog && wake),
    targetBacklogPerInstance: backlog?.TargetTrackingScalingPolicyConfiguration?.TargetValue ?? null,
    tracking: backlog?.TargetTrackingScalingPolicyConfiguration,
  };
}

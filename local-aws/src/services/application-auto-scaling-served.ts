import type { ApplicationAutoScalingInputShapesOperation } from "../wire/generated/application-auto-scaling.ts";
import { onlyValues, type Served } from "../wire/served-members.ts";

/**
 * The members of each Application Auto Scaling operation that the local control plane acts on; any other member of
 * the service model is refused (wire/served-members.ts). Not served: predictive scaling, and the not-scaled
 * activities local scaling never records.
 */
export const applicationAutoScalingServedMembers: Record<ApplicationAutoScalingInputShapesOperation, Served> = {
  DeleteScalingPolicy: "served",
  DeregisterScalableTarget: "served",
  DescribeScalableTargets: "served",
  DescribeScalingActivities: {
    ServiceNamespace: "served",
    ResourceId: "served",
    ScalableDimension: "served",
    MaxResults: "served",
    NextToken: "served",
    IncludeNotScaledActivities: onlyValues(false),
  },
  DescribeScalingPolicies: "served",
  PutScalingPolicy: {
    PolicyName: "served",
    ServiceNamespace: "served",
    ResourceId: "served",
    ScalableDimension: "served",
    PolicyType: "served",
    StepScalingPolicyConfiguration: "served",
    TargetTrackingScalingPolicyConfiguration: "served",
  },
  RegisterScalableTarget: "served",
};

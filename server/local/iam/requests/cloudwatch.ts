import type { OperationAuthorization } from "./facts.ts";

/** CloudWatch: GetMetricData over classic metrics has no resource type. */
export const cloudWatchAuthorization: Record<string, OperationAuthorization> = {
  GetMetricData: () => [{ action: "cloudwatch:GetMetricData", resource: "*", context: {} }],
};

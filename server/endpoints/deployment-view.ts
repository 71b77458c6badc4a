import type { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import type { DescribeEndpointOutput } from "@aws-sdk/client-sagemaker";
import type { EndpointDeployment } from "../../contract/endpoints/deployment-status.ts";
import { configHistoryRule } from "./config-history.ts";
import type { ModelRecords } from "./model-records.ts";
import { alarmStates } from "./rollback-alarms.ts";

const iso = (date: Date | undefined) => (date ? date.toISOString() : null);

/**
 * An endpoint's update as DescribeEndpoint reports it (PendingDeploymentSummary, LastDeploymentConfig), with the
 * states of the rollback alarms: the stages of the new fleet, its share of traffic, and why an update rolled back.
 */
export async function deploymentOf(
  endpoint: DescribeEndpointOutput,
  records: ModelRecords,
  cloudWatch: CloudWatchClient,
): Promise<EndpointDeployment> {
  const pending = endpoint.PendingDeploymentSummary;
  const variant = pending?.ProductionVariants?.[0];
  const weight = variant?.DesiredWeight;
  const names = (endpoint.LastDeploymentConfig?.AutoRollbackConfiguration?.Alarms ?? []).flatMap((alarm) =>
    alarm.AlarmName ? [alarm.AlarmName] : [],
  );
  return {
    pending: pending
      ? {
          configName: pending.EndpointConfigName ?? "",
          startedAt: iso(pending.StartTime),
          newFleetShare:
            variant?.CurrentWeight !== undefined && weight ? Math.min(1, variant.CurrentWeight / weight) : null,
          newInstanceCount: variant?.DesiredInstanceCount ?? null,
          stages: (variant?.VariantStatus ?? []).map((stage) => ({
            status: stage.Status ?? "",
            message: stage.StatusMessage ?? null,
            startedAt: iso(stage.StartTime),
          })),
        }
      : null,
    lastDeploymentConfig: endpoint.LastDeploymentConfig ?? null,
    alarms: await alarmStates(cloudWatch, names),
    previousConfig: records.previousConfig ?? null,
    historyRule: configHistoryRule,
  };
}

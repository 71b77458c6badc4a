import type { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import type { DescribeEndpointOutput } from "@aws-sdk/client-sagemaker";
import type { EndpointDeployment } from "../../contract/endpoints/deployment-status.ts";
import type { Store } from "../store/store.ts";
import { configHistoryRule } from "./config-history.ts";
import type { ModelRecords } from "./model-records.ts";
import { alarmStates } from "./rollback-alarms.ts";
import { lastRollbackCause } from "./rollback-cause.ts";

const iso = (date: Date | undefined) => (date ? date.toISOString() : null);

/**
 * An endpoint's update as DescribeEndpoint reports it (PendingDeploymentSummary, LastDeploymentConfig), with the
 * states of the rollback alarms: the stages of the new fleet, its share of traffic, and why an update rolled back.
 * Without the console's store (a check that needs only the status) the cause of a roll back is not read.
 */
export async function deploymentOf(
  endpoint: DescribeEndpointOutput,
  records: ModelRecords,
  cloudWatch: CloudWatchClient,
  store?: Store,
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
    lastRollback: store ? await lastRollbackCause(endpoint, cloudWatch, store) : null,
    previousConfig: records.previousConfig ?? null,
    historyRule: configHistoryRule,
  };
}

import { type CloudWatchClient, SetAlarmStateCommand } from "@aws-sdk/client-cloudwatch";
import { DescribeEndpointCommand, type SageMakerClient } from "@aws-sdk/client-sagemaker";
import type { AbortUpdateResult } from "../../contract/endpoints/update.ts";
import { awsCall } from "../aws/errors.ts";
import { AppError } from "../http/app-error.ts";

/**
 * Abort and roll back an update in progress. SageMaker has no call that stops an update (UpdateEndpoint refuses an
 * endpoint that is Updating); what it offers is its auto-rollback: "If any alarms are tripped during a deployment,
 * SageMaker rolls back the deployment" (AutoRollbackConfig, API reference). So the console sets the update's first
 * rollback alarm to ALARM (SetAlarmState, with who asked as the reason), and SageMaker moves all traffic back to the
 * old fleet, as it does when the alarm goes off by itself. An update without rollback alarms cannot be aborted.
 */
export async function abortUpdate(
  clients: { sageMaker: SageMakerClient; cloudWatch: CloudWatchClient },
  name: string,
  actor: string,
): Promise<AbortUpdateResult> {
  const endpoint = await awsCall(`endpoint "${name}"`, () =>
    clients.sageMaker.send(new DescribeEndpointCommand({ EndpointName: name })),
  );
  const status = endpoint.EndpointStatus;
  const pending = endpoint.PendingDeploymentSummary;
  if (status !== "Updating" || !pending) {
    throw new AppError("conflict", `Endpoint "${name}" is ${status}: no update is in progress to abort.`, { status });
  }
  const alarms = (endpoint.LastDeploymentConfig?.AutoRollbackConfiguration?.Alarms ?? []).flatMap((alarm) =>
    alarm.AlarmName ? [alarm.AlarmName] : [],
  );
  const alarm = alarms[0];
  if (alarm === undefined) {
    throw new AppError(
      "conflict",
      `The update to ${pending.EndpointConfigName ?? "the new configuration"} watches no rollback alarm, and SageMaker offers no other way to stop an update: let it finish, then roll back to the previous configuration.`,
    );
  }
  await awsCall(`alarm "${alarm}"`, () =>
    clients.cloudWatch.send(
      new SetAlarmStateCommand({
        AlarmName: alarm,
        StateValue: "ALARM",
        StateReason: `Abort and roll back, asked from the console by ${actor}`,
      }),
    ),
  );
  return { name, configName: pending.EndpointConfigName ?? "", alarm, status: "Updating" };
}

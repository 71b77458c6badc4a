import { type CloudWatchClient, DescribeAlarmHistoryCommand } from "@aws-sdk/client-cloudwatch";
import { DescribeEndpointCommand, type SageMakerClient, waitUntilEndpointInService } from "@aws-sdk/client-sagemaker";
import { LONGEST_UPDATE_SECONDS, type UpdateResult } from "../../contract/endpoints/update.ts";
import { recordAudit } from "../audit/record.ts";
import { awsCall } from "../aws/errors.ts";
import type { Store } from "../store/store.ts";

/** Who rolled the endpoint back: SageMaker's deployment guardrails, not a person. */
export const ALARM_ROLLBACK_ACTOR = "sagemaker";

export interface WatchedUpdate {
  result: UpdateResult;
  /** When UpdateEndpoint was sent: the alarm history is read from then on. */
  startedAt: Date;
  /** The person whose update this was. */
  actor: string;
}

/**
 * Waits for an update with rollback alarms to end; if SageMaker rolled it back (the endpoint serves another
 * configuration than the update's), writes the audit line of that roll back, naming the alarms that went into
 * ALARM since the update started (their DescribeAlarmHistory), the configurations from and to, and the update's
 * author. Returns the alarms named, or null when the update was not rolled back.
 */
export async function auditAlarmRollback(
  clients: { sageMaker: SageMakerClient; cloudWatch: CloudWatchClient },
  store: Store,
  update: WatchedUpdate,
  pollSeconds = 30,
): Promise<string[] | null> {
  const { result } = update;
  await waitUntilEndpointInService(
    { client: clients.sageMaker, maxWaitTime: LONGEST_UPDATE_SECONDS, minDelay: pollSeconds, maxDelay: pollSeconds },
    { EndpointName: result.name },
  ).catch(() => undefined);
  const endpoint = await awsCall(`endpoint "${result.name}"`, () =>
    clients.sageMaker.send(new DescribeEndpointCommand({ EndpointName: result.name })),
  );
  if (endpoint.EndpointStatus !== "InService" || endpoint.EndpointConfigName === result.endpointConfigName) return null;
  const tripped: string[] = [];
  for (const alarm of result.alarms) {
    const history = await awsCall(`history of alarm "${alarm}"`, () =>
      clients.cloudWatch.send(
        new DescribeAlarmHistoryCommand({
          AlarmName: alarm,
          HistoryItemType: "StateUpdate",
          StartDate: update.startedAt,
        }),
      ),
    );
    if ((history.AlarmHistoryItems ?? []).some((item) => / to ALARM$/.test(item.HistorySummary ?? ""))) {
      tripped.push(alarm);
    }
  }
  await recordAudit(
    {
      actor: ALARM_ROLLBACK_ACTOR,
      action: "endpoint.rollback.alarm",
      target: result.name,
      result: "ok",
      detail: {
        alarms: tripped,
        from: result.endpointConfigName,
        to: endpoint.EndpointConfigName ?? null,
        failureReason: endpoint.FailureReason ?? null,
        updateBy: update.actor,
      },
    },
    store,
  );
  return tripped;
}

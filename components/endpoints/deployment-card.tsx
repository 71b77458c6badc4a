"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { EndpointDetail } from "@/contract/endpoints/endpoint.ts";
import { api } from "../api/console-client.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { queryKeys } from "../api/query-keys.ts";
import { Button } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { timestampText } from "../ui/timestamp.tsx";
import { useUpdateEndpoint } from "./endpoint-queries.ts";
import { alarmReasonText } from "./rollback-reason.ts";
import { UpdateEndpointForm } from "./update-endpoint-form.tsx";
import { type UpdateForm, updateFormStaysOpen } from "./update-form.ts";

const time = timestampText;

/** Which fleet takes what share of traffic while an update runs. */
function TrafficSplit({ share }: { share: number }) {
  const percent = Math.round(share * 100);
  return (
    <div className="flex flex-col gap-1">
      <div
        className="flex h-3 w-full overflow-hidden rounded bg-slate-200"
        role="img"
        aria-label={`Old fleet ${100 - percent}% of traffic, new fleet ${percent}%`}
      >
        <div className="bg-blue-700" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-xs text-slate-700">
        Old fleet {100 - percent}% · new fleet {percent}% of traffic
      </p>
    </div>
  );
}

/** The configuration the serving one replaced, and a roll back to it (all traffic at once, no alarms). */
function PreviousConfig({ endpoint }: { endpoint: EndpointDetail }) {
  const rollBack = useUpdateEndpoint(endpoint.name);
  const { previousConfig, historyRule } = endpoint.deployment;
  if (!previousConfig) return null;
  return (
    <section aria-label="Previous configuration" className="flex flex-col gap-2">
      <p>
        Before this configuration the endpoint served <span className="font-mono">{previousConfig}</span>.{" "}
        <span className="text-slate-700">{historyRule}</span>
      </p>
      <div>
        <Button
          variant="secondary"
          size="sm"
          disabled={endpoint.status !== "InService" || rollBack.isPending}
          onClick={() =>
            rollBack.mutate({
              change: {},
              rollBackTo: previousConfig,
              strategy: { kind: "all-at-once", waitSeconds: 0 },
              alarms: { kind: "none" },
            })
          }
        >
          Roll back to {previousConfig}
        </Button>
      </div>
      {rollBack.error && <ErrorAlert title="The roll back was not started" error={rollBack.error} />}
    </section>
  );
}

/**
 * Abort and roll back the update in progress. SageMaker rolls an update back when one of its rollback alarms goes
 * off, and has no other way to stop it, so an update without rollback alarms offers no abort.
 */
function AbortUpdate({ endpoint }: { endpoint: EndpointDetail }) {
  const client = useQueryClient();
  const abort = useMutation({
    mutationFn: () => api("abortUpdate", { params: { name: endpoint.name } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.endpoints.all }),
  });
  if (endpoint.deployment.alarms.length === 0) {
    return (
      <p className="text-slate-700">
        This update watches no rollback alarm, so it cannot be aborted: SageMaker rolls back only on an alarm. Once it
        is over, roll back to the previous configuration.
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      <div>
        <Button
          variant="secondary"
          size="sm"
          disabled={abort.isPending || abort.isSuccess}
          onClick={() => abort.mutate()}
        >
          {abort.isPending ? "Aborting…" : "Abort and roll back"}
        </Button>
      </div>
      {abort.data && (
        <p role="status" className="text-slate-800">
          {abort.data.alarm} set to ALARM: SageMaker moves all traffic back to the old fleet and removes the new one.
        </p>
      )}
      {abort.error && <ErrorAlert title="The update was not aborted" error={abort.error} />}
    </div>
  );
}

/**
 * Updates: the form (operators, InService only), the update in progress with its stages and the new fleet's share,
 * and the rollback alarms' states with the last deployment's outcome.
 */
export function DeploymentCard({ endpoint, initial }: { endpoint: EndpointDetail; initial?: Partial<UpdateForm> }) {
  const [editing, setEditing] = useState(initial !== undefined);
  if (editing !== updateFormStaysOpen(editing, endpoint.status)) setEditing(false);
  const { deployment } = endpoint;
  const { pending } = deployment;
  return (
    <Card
      title="Updates"
      actions={
        !editing && (
          <Button
            variant="secondary"
            size="sm"
            disabled={endpoint.status !== "InService"}
            onClick={() => setEditing(true)}
          >
            Update endpoint
          </Button>
        )
      }
    >
      <div className="flex flex-col gap-3 text-sm">
        {updateFormStaysOpen(editing, endpoint.status) && (
          <UpdateEndpointForm endpoint={endpoint} initial={initial} onDone={() => setEditing(false)} />
        )}
        {pending && (
          <section aria-label="Update in progress" className="flex flex-col gap-2">
            <p>
              Updating to <span className="font-mono">{pending.configName}</span> (started {time(pending.startedAt)}
              {pending.newInstanceCount !== null && `, ${pending.newInstanceCount} new instances`}).
            </p>
            {pending.newFleetShare !== null && <TrafficSplit share={pending.newFleetShare} />}
            <ol className="flex flex-col gap-1">
              {pending.stages.map((stage) => (
                <li key={`${stage.status} ${stage.startedAt} ${stage.message}`} className="flex gap-2">
                  <span className="w-20 shrink-0 text-slate-700">{time(stage.startedAt)}</span>
                  <span className="font-medium">{stage.status}</span>
                  <span>{stage.message}</span>
                </li>
              ))}
            </ol>
            <AbortUpdate endpoint={endpoint} />
          </section>
        )}
        {deployment.alarms.length > 0 && (
          <section aria-label="Rollback alarms">
            <h3 className="font-semibold">Rollback alarms</h3>
            <ul className="flex flex-col gap-1">
              {deployment.alarms.map((alarm) => (
                <li key={alarm.name}>
                  <span className="font-mono">{alarm.name}</span>:{" "}
                  <span className={alarm.state === "ALARM" ? "font-semibold text-red-800" : ""}>
                    {alarm.state ?? "not readable"}
                  </span>
                  {alarm.state === "ALARM" && alarm.reason && (
                    <span className="text-slate-700"> ({alarmReasonText(alarm.name, alarm.reason)})</span>
                  )}
                </li>
              ))}
            </ul>
          </section>
        )}
        {!pending && <PreviousConfig endpoint={endpoint} />}
        {!pending && !editing && deployment.alarms.length === 0 && !deployment.previousConfig && (
          <p className="text-slate-700">
            Change the image, model or settings in place, with canary or linear traffic shifting and alarm rollback.
          </p>
        )}
      </div>
    </Card>
  );
}

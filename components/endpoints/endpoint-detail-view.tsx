"use client";

import Link from "next/link";
import { ErrorAlert } from "../api/error-text.tsx";
import { Alert } from "../ui/alert.tsx";
import { buttonClasses } from "../ui/button.tsx";
import { Card, PageHeader } from "../ui/card.tsx";
import { AlarmsCard } from "./alarms-card.tsx";
import { AsyncRequestsTable } from "./async-requests-table.tsx";
import { AutoscalingCard } from "./autoscaling-card.tsx";
import { DeleteEndpoint } from "./delete-endpoint.tsx";
import { DeploymentCard } from "./deployment-card.tsx";
import { EndpointLogsPanel } from "./endpoint-logs-panel.tsx";
import { useEndpoint } from "./endpoint-queries.ts";
import { HealthBadge } from "./health-badge.tsx";
import { InvocationsTable } from "./invocations-table.tsx";
import { MetricsPanel } from "./metrics-panel.tsx";
import { ModelVersionLineage } from "./model-version-lineage.tsx";
import { rollbackCauseText } from "./rollback-reason.ts";
import { ScaleForm } from "./scale-form.tsx";
import { SettingsCard } from "./settings-card.tsx";
import { StatusBadge } from "./status-badge.tsx";
import { VariantsCard } from "./variants-card.tsx";

export function EndpointDetailView({ name, updateTemperature }: { name: string; updateTemperature?: string }) {
  const { data: endpoint, error, isPending } = useEndpoint(name);
  if (isPending) return <p className="text-sm text-slate-700">Loading {name}…</p>;
  if (error || !endpoint) {
    return (
      <>
        <PageHeader title={name} />
        <ErrorAlert title="Could not load this endpoint" error={error} />
      </>
    );
  }
  // An InService endpoint with a FailureReason went back from its last update; another kept the reason it failed by.
  const cause = endpoint.status === "InService" ? endpoint.deployment.lastRollback : null;
  const rollback = cause ? rollbackCauseText(cause) : null;
  return (
    <>
      <PageHeader
        title={endpoint.name}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <StatusBadge status={endpoint.status} />
            {endpoint.status === "InService" && <HealthBadge name={endpoint.name} />}
          </span>
        }
        actions={
          <div className="flex gap-2">
            {endpoint.status === "InService" && (
              <Link
                href={`/playground?endpoint=${encodeURIComponent(endpoint.name)}`}
                className={buttonClasses("secondary")}
              >
                Open in playground
              </Link>
            )}
            <Link
              href={`/endpoints/${encodeURIComponent(endpoint.name)}/monitoring`}
              className={buttonClasses("secondary")}
            >
              Monitoring
            </Link>
            <DeleteEndpoint name={endpoint.name} status={endpoint.status} />
          </div>
        }
      />
      <div className="flex flex-col gap-4">
        {rollback ? (
          <Alert title={rollback.title}>{rollback.text}</Alert>
        ) : (
          endpoint.failureReason && <Alert title="Failure reason">{endpoint.failureReason}</Alert>
        )}
        <DeploymentCard
          endpoint={endpoint}
          initial={updateTemperature === undefined ? undefined : { temperature: updateTemperature }}
        />
        <div className="grid gap-4 lg:grid-cols-2">
          <div className="flex flex-col gap-4">
            <ModelVersionLineage arn={endpoint.model.modelVersionArn} />
            <SettingsCard endpoint={endpoint} />
          </div>
          <div className="flex flex-col gap-4">
            <VariantsCard variants={endpoint.variants} />
            <Card title="Scale">
              <ScaleForm name={endpoint.name} status={endpoint.status} current={endpoint.instanceCount} />
            </Card>
            <AutoscalingCard
              name={endpoint.name}
              status={endpoint.status}
              autoscaling={endpoint.autoscaling}
              asynchronous={endpoint.asyncInference !== null}
              instanceCount={endpoint.instanceCount}
            />
          </div>
        </div>
        <MetricsPanel
          name={endpoint.name}
          asynchronous={endpoint.asyncInference !== null}
          serving={{ instanceType: endpoint.instanceType, instanceCount: endpoint.instanceCount }}
          hourlyPriceUsd={endpoint.hourlyPriceUsd}
        />
        <AlarmsCard name={endpoint.name} />
        {endpoint.asyncInference !== null && <AsyncRequestsTable name={endpoint.name} />}
        <InvocationsTable name={endpoint.name} />
        <EndpointLogsPanel name={endpoint.name} />
      </div>
    </>
  );
}

"use client";

import Link from "next/link";
import { ErrorAlert } from "../api/error-text.tsx";
import { useEndpoint } from "../endpoints/endpoint-queries.ts";
import { StatusBadge } from "../endpoints/status-badge.tsx";
import { Alert } from "../ui/alert.tsx";
import { buttonClasses } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";

const steps = ["Creating", "InService"] as const;

export function DeployProgress({ name }: { name: string }) {
  const { data: endpoint, error } = useEndpoint(name);
  return (
    <Card title={`Deploying ${name}`}>
      <div className="flex flex-col gap-3" aria-live="polite">
        {error && <ErrorAlert title="Could not read the endpoint's status" error={error} />}
        {endpoint && (
          <>
            <p className="flex items-center gap-2 text-sm">
              Status: <StatusBadge status={endpoint.status} />
              {endpoint.instanceType && (
                <span className="text-slate-700">
                  on <span className="font-mono">{endpoint.instanceType}</span>
                </span>
              )}
            </p>
            <ol className="flex gap-2 text-xs">
              {steps.map((step) => (
                <li
                  key={step}
                  className={`rounded px-2 py-1 ${
                    endpoint.status === step || (step === "Creating" && endpoint.status === "InService")
                      ? "bg-blue-100 text-blue-900"
                      : "bg-slate-100 text-slate-700"
                  }`}
                >
                  {step}
                </li>
              ))}
            </ol>
            {endpoint.status === "Creating" && (
              <p className="text-sm text-slate-700">
                SageMaker is provisioning instances, downloading the model and waiting for the container's /ping.
              </p>
            )}
            {endpoint.failureReason && <Alert title="Deployment failed">{endpoint.failureReason}</Alert>}
            {endpoint.variants.some((variant) => variant.pools.some((pool) => pool.isFallback)) && (
              <Alert tone="warning" title="Fallback pool in use">
                The first-priority instance type had no capacity; a lower-priority pool is serving.
              </Alert>
            )}
            {endpoint.status === "InService" && (
              <div className="flex gap-2">
                <Link href={`/playground?endpoint=${encodeURIComponent(name)}`} className={buttonClasses()}>
                  Try it in the playground
                </Link>
                <Link href={`/endpoints/${encodeURIComponent(name)}`} className={buttonClasses("secondary")}>
                  Endpoint details
                </Link>
              </div>
            )}
          </>
        )}
      </div>
    </Card>
  );
}

"use client";

import Link from "next/link";
import { isTransitional } from "@/contract/endpoints/status.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { useConsoleSettings } from "../api/settings-queries.ts";
import { Alert } from "../ui/alert.tsx";
import { buttonClasses } from "../ui/button.tsx";
import { Card, PageHeader } from "../ui/card.tsx";
import { useEndpoints } from "./endpoint-queries.ts";
import { EndpointsTable } from "./endpoints-table.tsx";

export function EndpointsView() {
  const { data, error, isPending } = useEndpoints();
  const firstRunLimits = useConsoleSettings().data?.firstRunLimits ?? [];
  const changing = data?.endpoints.filter((endpoint) => isTransitional(endpoint.status)).length ?? 0;
  return (
    <>
      <PageHeader
        title="Endpoints"
        description={
          changing > 0
            ? `${changing} endpoint${changing === 1 ? " is" : "s are"} changing; this list refreshes every few seconds.`
            : "SageMaker endpoints serving decision and chat models."
        }
        actions={
          <Link href="/deploy" className={buttonClasses()}>
            Deploy an endpoint
          </Link>
        }
      />
      {firstRunLimits.length > 0 && (
        <div className="mb-4">
          <Alert tone="warning" title="This console started with limits">
            <ul className="ml-5 list-disc space-y-1">
              {firstRunLimits.map((limit) => (
                <li key={limit}>{limit}</li>
              ))}
            </ul>
          </Alert>
        </div>
      )}
      {error && <ErrorAlert title="Could not list endpoints" error={error} />}
      {isPending && <p className="text-sm text-slate-700">Loading endpoints…</p>}
      {data && data.endpoints.length === 0 && <EmptyState />}
      {data && data.endpoints.length > 0 && <EndpointsTable endpoints={data.endpoints} pricesAsOf={data.pricesAsOf} />}
    </>
  );
}

function EmptyState() {
  return (
    <Card title="No endpoints yet">
      <ol className="ml-5 list-decimal space-y-1 text-sm text-slate-800">
        <li>
          <Link href="/builds" className="text-blue-800 underline">
            Package a model
          </Link>{" "}
          (a pinned GGUF from a preset or your own repository) and build the adapter image.
        </li>
        <li>
          <Link href="/deploy" className="text-blue-800 underline">
            Deploy
          </Link>{" "}
          the image and the model on a CPU instance type or an ordered GPU instance pool.
        </li>
        <li>
          Try decisions in the{" "}
          <Link href="/playground" className="text-blue-800 underline">
            playground
          </Link>{" "}
          once the endpoint is InService.
        </li>
      </ol>
    </Card>
  );
}

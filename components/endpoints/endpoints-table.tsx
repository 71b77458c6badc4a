"use client";

import Link from "next/link";
import type { EndpointSummary } from "@/contract/endpoints/endpoint.ts";
import { Badge } from "../ui/badge.tsx";
import { type Column, DataTable } from "../ui/data-table.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { costPerThousand, hourlyPrice, shortDigest, shortSha } from "./endpoint-format.ts";
import { HealthBadge } from "./health-badge.tsx";
import { StatusBadge } from "./status-badge.tsx";

const columns: Column<EndpointSummary>[] = [
  {
    key: "name",
    header: "Name",
    cell: (row) =>
      row.managed ? (
        <Link
          href={`/endpoints/${encodeURIComponent(row.name)}`}
          className="font-medium text-blue-800 underline-offset-2 hover:underline"
        >
          {row.name}
        </Link>
      ) : (
        <span className="inline-flex items-center gap-2">
          <span className="font-medium text-slate-800">{row.name}</span>
          <Badge>not managed by this console</Badge>
        </span>
      ),
    sortValue: (row) => row.name,
    filterText: (row) => row.name,
  },
  {
    key: "status",
    header: "Status",
    cell: (row) => <StatusBadge status={row.status} />,
    sortValue: (row) => row.status,
    filterText: (row) => row.status,
  },
  {
    key: "health",
    header: "Health (15 min)",
    cell: (row) =>
      row.managed && row.status === "InService" ? (
        <HealthBadge name={row.name} />
      ) : (
        <span className="text-slate-700">—</span>
      ),
  },
  {
    key: "mode",
    header: "API mode",
    cell: (row) => row.apiMode,
    sortValue: (row) => row.apiMode,
    filterText: (row) => row.apiMode,
  },
  {
    key: "instance",
    header: "Instance",
    cell: (row) =>
      row.instanceType ? (
        <span className="inline-flex items-center gap-1">
          <span className="font-mono text-xs">{row.instanceType}</span>
          {row.instanceCount !== null && <span className="text-slate-700">×{row.instanceCount}</span>}
          {row.usedFallbackPool && <Badge tone="warning">fallback pool</Badge>}
        </span>
      ) : (
        <span className="text-slate-700">—</span>
      ),
    sortValue: (row) => row.instanceType ?? "",
    filterText: (row) => row.instanceType ?? "",
  },
  {
    key: "image",
    header: "Image",
    cell: (row) => (
      <span className="font-mono text-xs" title={row.imageDigest ?? undefined}>
        {shortDigest(row.imageDigest)}
      </span>
    ),
    filterText: (row) => row.imageDigest ?? "",
  },
  {
    key: "model",
    header: "Model sha256",
    cell: (row) => (
      <span className="font-mono text-xs" title={row.modelSha256 ?? undefined}>
        {shortSha(row.modelSha256)}
      </span>
    ),
    filterText: (row) => row.modelSha256 ?? "",
  },
  {
    key: "created",
    header: "Created",
    cell: (row) => <Timestamp at={row.createdAt} />,
    sortValue: (row) => Date.parse(row.createdAt),
    className: "whitespace-nowrap",
  },
  {
    key: "price",
    header: "$/hour",
    cell: (row) => hourlyPrice(row.hourlyPriceUsd),
    sortValue: (row) => row.hourlyPriceUsd ?? -1,
    className: "tabular-nums",
  },
  {
    key: "cost",
    header: "$ per 1,000 decisions (24 h)",
    cell: (row) => costPerThousand(row.costPerThousandUsd),
    sortValue: (row) => row.costPerThousandUsd ?? -1,
    className: "tabular-nums",
  },
];

export function EndpointsTable({ endpoints, pricesAsOf }: { endpoints: EndpointSummary[]; pricesAsOf: string }) {
  const unmanaged = endpoints.filter((endpoint) => !endpoint.managed).length;
  return (
    <div className="flex flex-col gap-2">
      <DataTable
        caption="Endpoints"
        columns={columns}
        rows={endpoints}
        rowKey={(row) => row.name}
        initialSort={{ key: "created", direction: "descending" }}
        filterLabel="Filter endpoints"
      />
      {unmanaged > 0 && (
        <p className="text-sm text-slate-800">
          {unmanaged === 1 ? "1 endpoint is" : `${unmanaged} endpoints are`} not managed by this console: its IAM policy
          covers only endpoints named with its resource prefix (CONSOLE_RESOURCE_PREFIX), so it lists them but cannot
          open, invoke or change them.
        </p>
      )}
      <p className="text-xs text-slate-700">
        On-demand prices from the bundled price table dated {pricesAsOf}. The cost per 1,000 decisions is the listed
        instances&apos; price over the last 24 hours divided by the invocations CloudWatch counted; the endpoint&apos;s
        page counts its scaling over the window you pick.
      </p>
    </div>
  );
}

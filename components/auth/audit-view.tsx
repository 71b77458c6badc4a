"use client";

import { useState } from "react";
import type { AuditRecord } from "@/contract/audit/audit.ts";
import { Alert } from "../ui/alert.tsx";
import { Badge } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";
import { type Column, DataTable } from "../ui/data-table.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { useAuditLog } from "./auth-queries.ts";

const resultTone = { ok: "success", error: "danger", denied: "warning" } as const;

const columns: Column<AuditRecord>[] = [
  {
    key: "at",
    header: "When",
    cell: (r) => <Timestamp at={r.at} />,
    sortValue: (r) => Date.parse(r.at),
    className: "whitespace-nowrap",
  },
  { key: "actor", header: "Who", cell: (r) => r.actor, sortValue: (r) => r.actor, filterText: (r) => r.actor },
  { key: "action", header: "What", cell: (r) => r.action, sortValue: (r) => r.action, filterText: (r) => r.action },
  { key: "target", header: "Target", cell: (r) => r.target, filterText: (r) => r.target },
  { key: "result", header: "Result", cell: (r) => <Badge tone={resultTone[r.result]}>{r.result}</Badge> },
  {
    key: "aws",
    header: "AWS request id",
    cell: (r) => <span className="font-mono text-xs">{r.awsRequestId ?? "—"}</span>,
    filterText: (r) => r.awsRequestId ?? "",
  },
  {
    key: "detail",
    header: "Detail",
    cell: (r) => (r.detail === null ? "—" : <code className="text-xs break-all">{JSON.stringify(r.detail)}</code>),
  },
];

export function AuditView() {
  const [pages, setPages] = useState<number[]>([]);
  const before = pages.at(-1);
  const log = useAuditLog(before);
  if (log.error) return <Alert title="The audit log could not be loaded">{log.error.message}</Alert>;
  const records = log.data?.records ?? [];
  const nextBefore = log.data?.nextBefore ?? null;
  return (
    <DataTable
      caption="Audit log: every change made through this console, newest first"
      columns={columns}
      rows={records}
      rowKey={(r) => String(r.id)}
      initialSort={{ key: "at", direction: "descending" }}
      pageSize={100}
      filterLabel="Filter by who, what or target"
      toolbar={
        <div className="flex gap-2">
          <Button
            variant="secondary"
            size="sm"
            disabled={pages.length === 0}
            onClick={() => setPages(pages.slice(0, -1))}
          >
            Newer
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={nextBefore === null}
            onClick={() => nextBefore !== null && setPages([...pages, nextBefore])}
          >
            Older
          </Button>
        </div>
      }
    />
  );
}

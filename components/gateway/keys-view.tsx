"use client";

import type { GatewayKeyList } from "@/contract/gateway/keys.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { Badge } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { type Column, DataTable } from "../ui/data-table.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { CreateKeyForm } from "./create-key-form.tsx";
import { useGatewayKeys, useRevokeGatewayKey } from "./gateway-queries.ts";
import { KeyUsageChart } from "./key-usage-chart.tsx";

type KeyRow = GatewayKeyList["keys"][number];

function stateOf(key: KeyRow): { text: string; tone: "success" | "danger" | "warning" } {
  if (key.revokedAt) return { text: "revoked", tone: "danger" };
  if (key.expiresAt && Date.parse(key.expiresAt) <= Date.now()) return { text: "expired", tone: "warning" };
  return { text: "active", tone: "success" };
}

function RevokeButton({ row }: { row: KeyRow }) {
  const revoke = useRevokeGatewayKey();
  if (row.revokedAt) return null;
  return (
    <>
      <Button
        variant="danger"
        size="sm"
        disabled={revoke.isPending}
        onClick={() => window.confirm(`Revoke the key "${row.name}"?`) && revoke.mutate(row.id)}
      >
        Revoke
      </Button>
      {revoke.error && <ErrorAlert error={revoke.error} title="Not revoked" />}
    </>
  );
}

const columns: Column<KeyRow>[] = [
  { key: "name", header: "Name", cell: (r) => r.name, sortValue: (r) => r.name, filterText: (r) => r.name },
  {
    key: "state",
    header: "State",
    cell: (r) => {
      const state = stateOf(r);
      return <Badge tone={state.tone}>{state.text}</Badge>;
    },
  },
  {
    key: "endpoints",
    header: "Endpoints and aliases",
    cell: (r) => (
      <span className="font-mono text-xs">
        {[...r.endpoints, ...Object.entries(r.aliases).map(([alias, to]) => `${alias}→${to}`)].join(", ")}
      </span>
    ),
    filterText: (r) => r.endpoints.join(" "),
  },
  {
    key: "limits",
    header: "Limits per minute",
    cell: (r) => `${r.requestsPerMinute} requests, ${r.tokensPerMinute} tokens`,
  },
  { key: "expires", header: "Expires", cell: (r) => (r.expiresAt ? <Timestamp at={r.expiresAt} /> : "never") },
  {
    key: "calls",
    header: "Calls (24 h)",
    cell: (r) => <span data-testid={`key-calls-${r.name}`}>{r.usage.calls}</span>,
    sortValue: (r) => r.usage.calls,
  },
  { key: "tokens", header: "Tokens (24 h)", cell: (r) => r.usage.tokens, sortValue: (r) => r.usage.tokens },
  { key: "last", header: "Last call", cell: (r) => (r.usage.lastCallAt ? <Timestamp at={r.usage.lastCallAt} /> : "—") },
  { key: "createdBy", header: "Created by", cell: (r) => r.createdBy },
  { key: "actions", header: "", cell: (r) => <RevokeButton row={r} /> },
];

export function KeysView() {
  const keys = useGatewayKeys();
  const rows = keys.data?.keys ?? [];
  return (
    <div className="space-y-4">
      <Card title="New API key">
        <CreateKeyForm />
      </Card>
      {keys.error ? (
        <ErrorAlert error={keys.error} title="The keys could not be loaded" />
      ) : (
        <DataTable
          caption="API keys of the decision gateway"
          columns={columns}
          rows={rows}
          rowKey={(r) => r.id}
          initialSort={{ key: "name", direction: "ascending" }}
          pageSize={50}
          filterLabel="Filter by name or endpoint"
        />
      )}
      {rows
        .filter((row) => row.usage.calls > 0)
        .map((row) => (
          <Card key={row.id} title={`Usage of ${row.name}`}>
            <KeyUsageChart usage={row.usage} />
          </Card>
        ))}
    </div>
  );
}

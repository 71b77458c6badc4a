"use client";

import { ErrorAlert } from "../api/error-text.tsx";
import { Badge } from "../ui/badge.tsx";
import { Card } from "../ui/card.tsx";
import { Table, TableBody, TableHead } from "../ui/table.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { activityRefreshMs, useEndpointInvocations } from "./endpoint-activity-queries.ts";

export function InvocationsTable({ name }: { name: string }) {
  const { data, error, isPending } = useEndpointInvocations(name);
  return (
    <Card title="Recent invocations from this console">
      {error && <ErrorAlert title="Invocations unavailable" error={error} />}
      {isPending && <p className="text-sm text-slate-700">Loading invocations…</p>}
      {data && (
        <p className="mb-2 text-sm text-slate-700" data-testid="gateway-calls">
          Through the gateway in the last 24 hours: {data.gateway.calls} decision calls, {data.gateway.answered}{" "}
          answered.
        </p>
      )}
      {data && data.invocations.length === 0 && (
        <p className="text-sm text-slate-700">None yet. Run a request in the playground.</p>
      )}
      {data && data.invocations.length > 0 && (
        <p className="mb-2 text-xs text-slate-700">Newest first, refreshed every {activityRefreshMs / 1000} s.</p>
      )}
      {data && data.invocations.length > 0 && (
        <Table caption="Recent invocations">
          <TableHead>
            <th scope="col">When</th>
            <th scope="col">Request</th>
            <th scope="col">Status</th>
            <th scope="col">Latency</th>
            <th scope="col">Retries</th>
          </TableHead>
          <TableBody>
            {data.invocations.map((invocation) => (
              <tr key={invocation.id}>
                <td className="whitespace-nowrap">
                  <Timestamp at={invocation.at} />
                </td>
                <td className="max-w-xs truncate font-mono text-xs" title={invocation.requestPreview}>
                  {invocation.stream ? "stream · " : ""}
                  {invocation.requestPreview}
                </td>
                <td>
                  <Badge tone={invocation.status < 400 ? "success" : "danger"}>{invocation.status}</Badge>
                  {invocation.error && <span className="ml-2 text-red-800">{invocation.error}</span>}
                </td>
                <td className="whitespace-nowrap tabular-nums">{Math.round(invocation.latencyMs)} ms</td>
                <td className="tabular-nums">{invocation.retries}</td>
              </tr>
            ))}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}

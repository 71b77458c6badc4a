"use client";

import Link from "next/link";
import type { AsyncRequestRecord, AsyncRequestState } from "@/contract/invoke/invoke-async.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { Badge, type Tone } from "../ui/badge.tsx";
import { Card } from "../ui/card.tsx";
import { Table, TableBody, TableHead } from "../ui/table.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { useAsyncRequests } from "./endpoint-activity-queries.ts";

const stateTone: Record<AsyncRequestState, Tone> = { queued: "info", done: "success", failed: "danger" };

function SentBy({ sender }: { sender: AsyncRequestRecord["sentBy"] }) {
  if (sender.kind === "playground") return <>Playground{sender.user ? ` · ${sender.user}` : ""}</>;
  return (
    <>
      <Link className="text-blue-800 underline" href={`/evaluate/${sender.runId}`}>
        Evaluation
      </Link>{" "}
      · item <span className="font-mono text-xs">{sender.itemId}</span>
    </>
  );
}

function Location({ uri }: { uri: string | null }) {
  if (!uri) return <span className="text-slate-700">none</span>;
  return (
    <code className="block max-w-56 truncate text-xs" title={uri}>
      {uri}
    </code>
  );
}

/** An asynchronous endpoint's recent requests from this console, with where each one's input and outcome live. */
export function AsyncRequestsTable({ name }: { name: string }) {
  const { data, error, isPending } = useAsyncRequests(name);
  return (
    <Card title="Recent requests">
      {error && <ErrorAlert title="Asynchronous requests unavailable" error={error} />}
      {isPending && <p className="text-sm text-slate-700">Loading requests…</p>}
      {data && data.requests.length === 0 && (
        <p className="text-sm text-slate-700">None yet. Send a decision from the playground or run an evaluation.</p>
      )}
      {data && data.requests.length > 0 && (
        <Table caption="Recent asynchronous requests and their S3 locations">
          <TableHead>
            <th scope="col">State</th>
            <th scope="col">Submitted</th>
            <th scope="col">Sent by</th>
            <th scope="col">Input</th>
            <th scope="col">Output</th>
            <th scope="col">Failure</th>
          </TableHead>
          <TableBody>
            {data.requests.map((request) => (
              <tr key={request.inferenceId}>
                <td>
                  <Badge tone={stateTone[request.state]}>{request.state}</Badge>
                </td>
                <td className="whitespace-nowrap">
                  <Timestamp at={request.submittedAt} />
                </td>
                <td>
                  <SentBy sender={request.sentBy} />
                </td>
                <td>
                  <Location uri={request.inputLocation} />
                </td>
                <td>
                  <Location uri={request.outputLocation} />
                </td>
                <td>
                  <Location uri={request.failureLocation} />
                </td>
              </tr>
            ))}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}

"use client";

import Link from "next/link";
import type { ModelVersion } from "@/contract/models/model-registry.ts";
import { decimal, latency, percent } from "../evaluate/format.ts";
import { Badge } from "../ui/badge.tsx";
import { Table, TableBody, TableHead } from "../ui/table.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { versionPage } from "./model-queries.ts";
import { approvalLabel, approvalTone, sameDataset } from "./version-format.ts";

/**
 * A group's versions side by side: approval, the evaluation each was judged on and its figures, and the change in
 * accuracy against the version Approved now (only where both were evaluated on the same items), in the accuracy's
 * own cell so it stays in view on a narrow screen.
 */
export function VersionsComparison({ versions }: { versions: ModelVersion[] }) {
  const approved = versions.find((version) => version.status === "Approved") ?? null;
  return (
    <Table caption="Versions and their evaluations, side by side" testId="versions-comparison">
      <TableHead>
        <th scope="col">Version</th>
        <th scope="col">Approval</th>
        <th scope="col">Registered</th>
        <th scope="col">Evaluated on</th>
        <th scope="col">Accuracy (vs approved)</th>
        <th scope="col">Brier</th>
        <th scope="col">ECE</th>
        <th scope="col">p95</th>
        <th scope="col">Errors</th>
      </TableHead>
      <TableBody>
        {versions.map((version) => {
          const evaluation = version.evaluation;
          const comparable = approved && approved !== version ? sameDataset(version, approved) : null;
          const delta =
            comparable && evaluation?.accuracy != null && approved?.evaluation?.accuracy != null
              ? evaluation.accuracy - approved.evaluation.accuracy
              : null;
          return (
            <tr key={version.arn}>
              <td>
                <Link
                  className="font-medium text-blue-800 underline"
                  href={versionPage(version.group, version.version)}
                >
                  v{version.version}
                </Link>
              </td>
              <td>
                <Badge tone={approvalTone(version.status)}>{approvalLabel(version.status)}</Badge>
              </td>
              <td>
                <Timestamp at={version.createdAt} />
              </td>
              <td>
                {evaluation ? (
                  <span title={`sha256 ${evaluation.datasetSha256}`}>
                    {evaluation.datasetName} ({evaluation.items})
                  </span>
                ) : (
                  <span className="text-slate-600">not evaluated</span>
                )}
              </td>
              <td className="tabular-nums">
                {percent(evaluation?.accuracy)}
                {approved !== version && (delta !== null || comparable === false) && (
                  <span className="block text-xs text-slate-700">
                    {delta !== null
                      ? `${delta >= 0 ? "+" : ""}${(delta * 100).toFixed(1)} pt vs approved`
                      : "other dataset than approved"}
                  </span>
                )}
              </td>
              <td className="tabular-nums">{decimal(evaluation?.brier)}</td>
              <td className="tabular-nums">{decimal(evaluation?.ece)}</td>
              <td className="tabular-nums">{latency(evaluation?.p95Ms)}</td>
              <td className="tabular-nums">{evaluation ? evaluation.errors : "—"}</td>
            </tr>
          );
        })}
      </TableBody>
    </Table>
  );
}

import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ModelVersion } from "@/contract/models/model-registry.ts";
import { VersionsComparison } from "./versions-comparison.tsx";

const version = (number: number, status: ModelVersion["status"], accuracy: number): ModelVersion =>
  ({
    arn: `arn:aws:sagemaker:us-east-1:1:model-package/decisions/${number}`,
    group: "decisions",
    version: number,
    status,
    createdAt: "2026-12-07T10:00:00.000Z",
    evaluation: {
      runId: `run-${number}`,
      target: "dc-smol",
      datasetName: "jevbench",
      datasetSha256: "a".repeat(64),
      items: 231,
      accuracy,
      brier: 0.3,
      ece: 0.05,
      p50Ms: 100,
      p95Ms: 300,
      errors: 0,
      reportUrl: "s3://bucket/report.json",
      attachedAt: "2026-12-07T10:00:00.000Z",
    },
  }) as ModelVersion;

describe("the versions comparison", () => {
  const html = renderToStaticMarkup(
    createElement(VersionsComparison, {
      versions: [version(2, "PendingManualApproval", 0.81), version(1, "Approved", 0.775)],
    }),
  );

  it("has one header row whose cells line up with each version's row", () => {
    const head = html.slice(html.indexOf("<thead"), html.indexOf("</thead>"));
    expect(head.match(/<tr/g)).toHaveLength(1);
    const headers = head.match(/<th /g)?.length;
    const firstRow = html.slice(html.indexOf("<tbody"), html.indexOf("</tr>", html.indexOf("<tbody")));
    expect(firstRow.match(/<t[dh][ >]/g)).toHaveLength(headers as number);
  });

  it("shows the change against the approved version in the accuracy's own cell", () => {
    expect(html).toMatch(/<td[^>]*>81\.0%<span[^>]*>\+3\.5 pt vs approved<\/span><\/td>/);
  });
});

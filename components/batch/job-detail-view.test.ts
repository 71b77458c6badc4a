import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { TransformJobDetail } from "@/contract/batch/transform-jobs.ts";
import { FailureDetail, JobLogs, OutputPreview, Progress } from "./job-detail-view.tsx";

const job = (overrides: Partial<TransformJobDetail>): TransformJobDetail => ({
  name: "dc-eval-1",
  status: "InProgress",
  createdAt: "2026-12-01T10:00:00.000Z",
  endedAt: null,
  failureReason: null,
  durationSeconds: 40,
  modelName: "dc-model",
  model: null,
  inputS3Uri: "s3://b/batch/inputs/x/",
  outputS3Uri: "s3://b/batch/outputs/x/",
  instanceType: "ml.m5.large",
  instanceCount: 1,
  maxConcurrentTransforms: 2,
  batchStrategy: "SingleRecord",
  maxPayloadInMB: null,
  inputObjects: 1,
  outputs: [],
  recordsDone: 0,
  inputRecords: 231,
  recordsAnswered: 57,
  outputPreview: [],
  dataLog: [],
  costEstimateUsd: null,
  logs: [],
  ...overrides,
});

describe("the batch job page", () => {
  it("shows records answered while the single input's output is not written yet", () => {
    const html = renderToStaticMarkup(createElement(Progress, { job: job({}) }));
    expect(html).toContain("57 of 231 record(s) answered");
  });

  it("wraps its log lines", () => {
    const html = renderToStaticMarkup(
      createElement(JobLogs, {
        job: { name: "dc-eval-1", logs: [{ stream: "dc-eval-1/i-1", timestamp: "t", message: "x".repeat(5000) }] },
      }),
    );
    expect(html).toMatch(/<pre[^>]*class="[^"]*whitespace-pre-wrap[^"]*break-all/);
  });

  it("previews the first output records with their input line", () => {
    const html = renderToStaticMarkup(
      createElement(OutputPreview, {
        job: job({
          outputPreview: [
            {
              s3Uri: "s3://b/batch/outputs/x/items-00002.jsonl.out",
              line: 21,
              input: '{"decision":{"id":"q21"}}',
              output: '{"chosen":"yes"}',
            },
          ],
        }),
      }),
    );
    expect(html).toContain("items-00002.jsonl.out, input line 21");
    expect(html).toContain("{&quot;chosen&quot;:&quot;yes&quot;}");
  });

  it("shows a failed job's data log beside AWS's generic FailureReason", () => {
    const html = renderToStaticMarkup(
      createElement(FailureDetail, {
        job: {
          failureReason: "ClientError: See job logs for more information",
          dataLog: [
            "b/batch/inputs/x/items-00002.jsonl: ClientError: 400",
            "Message: decisions exceeds the request token budget",
          ],
        },
      }),
    );
    expect(html).toContain("items-00002.jsonl: ClientError: 400");
    expect(html).toContain("request token budget");
  });
});

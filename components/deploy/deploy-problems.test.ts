import { describe, expect, it } from "vitest";
import { deployRequestSchema } from "@/contract/endpoints/deploy.ts";
import { plainIssueText } from "@/contract/http/plain-issues.ts";
import { deployFieldLabels, formProblems } from "./deploy-problems.ts";
import { type DeployForm, deployRequestFrom, initialDeployForm } from "./deploy-request.ts";

const image = `123456789012.dkr.ecr.us-east-1.amazonaws.com/decision-adapter@sha256:${"a".repeat(64)}`;
const complete = { ...initialDeployForm({ image, model: "s3://bucket/m.tar.gz" }), name: "ok-1" };

/** The messages deployRequestSchema itself gives for the request the form stands for, in plain words. */
function schemaMessages(form: DeployForm): string[] {
  const parsed = deployRequestSchema.safeParse(deployRequestFrom(form), { error: plainIssueText });
  return parsed.error?.issues.map((issue) => issue.message) ?? [];
}

describe("the deploy form's problems", () => {
  it("names every problem a person can fix before review, each at its field", () => {
    const form = { ...initialDeployForm({}), name: "-bad-", imageUri: "repo:latest", computeKind: "gpu-pool" as const };
    form.gpuPools = ["ml.g5.2xlarge", "ml.g5.2xlarge"];
    const problems = formProblems(form);
    expect(Object.keys(problems.fields)).toEqual(["name", "imageUri", "modelDataUrl", "gpuPools"]);
    expect(problems.fields.gpuPools).toBe("instance types must be unique");
    expect(problems.summary.join(" ")).toMatch(
      /Endpoint name: .*Image URI pinned by digest: .*Model S3 URI: .*GPU instance pool: instance types must be unique/,
    );
  });

  it("shows the schema's own message, not one of its own", () => {
    const forms: DeployForm[] = [
      { ...complete, name: "" },
      { ...complete, imageUri: `${image.split("@")[0]}:latest` },
      { ...complete, imageUri: `${image.split("@")[0]}@sha256:abc` },
      { ...complete, modelDataUrl: "https://example.com/m.tar.gz" },
      { ...complete, threads: "0" },
      { ...complete, instanceCount: "21" },
      { ...complete, computeKind: "gpu-pool", gpuPools: [] },
      { ...complete, computeKind: "gpu-pool", gpuPools: ["4", "5", "6", "7", "8", "9"].map((n) => `ml.g${n}.xlarge`) },
      { ...complete, computeKind: "gpu-pool", provisioningTimeoutSeconds: "60" },
      { ...complete, limits: { ...complete.limits, maxInFlight: "0" } },
      { ...complete, temperature: "0" },
      { ...complete, invocationMode: "asynchronous", errorTopic: "arn:aws:sqs:us-east-1:123456789012:q" },
    ];
    for (const form of forms) {
      const messages = schemaMessages(form);
      expect(messages.length).toBeGreaterThan(0);
      expect(Object.values(formProblems(form).fields)).toEqual([messages[0]]);
    }
  });

  it("lists a problem tied to no field of the form in the summary, by its path", () => {
    const problems = formProblems({ ...complete, modelBytes: "0" });
    expect(problems.fields).toEqual({});
    expect(problems.summary).toEqual([`modelBytes: ${schemaMessages({ ...complete, modelBytes: "0" })[0]}`]);
  });

  it("finds nothing to fix in a complete CPU or GPU form", () => {
    expect(formProblems(complete)).toEqual({ fields: {}, summary: [] });
    expect(formProblems({ ...complete, computeKind: "gpu-pool" })).toEqual({ fields: {}, summary: [] });
  });

  it("refuses a temperature that is not a positive number, in the schema's words", () => {
    const problems = formProblems({ ...complete, temperature: "-1" });
    expect(problems.fields).toEqual({ temperature: "must be a number above 0 and at most 100" });
    expect(problems.summary).toEqual(["Temperature: must be a number above 0 and at most 100"]);
  });

  it("names a topic that is no SNS ARN and a concurrency out of range before review", () => {
    const problems = formProblems({
      ...complete,
      invocationMode: "asynchronous",
      successTopic: "arn:aws:sqs:us-east-1:123456789012:queue",
      maxConcurrentInvocations: "0",
    });
    expect(problems.summary).toEqual([
      "Concurrent requests per instance: must be a whole number from 1 to 1000",
      "Success topic: must be an SNS topic ARN such as arn:aws:sns:us-east-1:123456789012:dc-async-done",
    ]);
    expect(problems.fields).toMatchObject({ maxConcurrentInvocations: "must be a whole number from 1 to 1000" });
  });

  it("says each number's rule at its field in plain words, never zod's default text", () => {
    for (const instanceCount of ["0", "-3", ""]) {
      expect(formProblems({ ...complete, instanceCount }).fields).toEqual({ instanceCount: "At least 1 instance." });
    }
    expect(formProblems({ ...complete, instanceCount: "1.5" }).fields).toEqual({
      instanceCount: "A whole number of instances.",
    });
    expect(formProblems({ ...complete, instanceCount: "21" }).fields).toEqual({
      instanceCount: "At most 20 instances.",
    });
    expect(formProblems({ ...complete, threads: "0" }).fields).toEqual({ threads: "Must be at least 1." });
    expect(formProblems({ ...complete, computeKind: "gpu-pool", provisioningTimeoutSeconds: "60" }).fields).toEqual({
      provisioningTimeoutSeconds: "Must be at least 300.",
    });
    expect(formProblems({ ...complete, instanceCount: "0", threads: "0" }).summary).toEqual([
      "Threads: Must be at least 1.",
      "Instance count: At least 1 instance.",
    ]);
  });

  it("names the prefix and the length at the name field", () => {
    expect(formProblems({ ...complete, name: "demo" }, "dc-").fields).toEqual({
      name: 'Must start with "dc-" (the prefix the console\'s IAM policy allows) and be at most 63 characters.',
    });
    expect(formProblems({ ...complete, name: "dc-demo" }, "dc-")).toEqual({ fields: {}, summary: [] });
    expect(formProblems({ ...complete, name: `dc-${"x".repeat(70)}` }, "dc-").fields).toEqual({
      name: "At most 63 characters; this one has 73.",
    });
  });

  it("labels every field the way the form does", () => {
    expect(deployFieldLabels).toMatchObject({ name: "Endpoint name", imageUri: "Image URI pinned by digest" });
  });

  it("labels the adapter's limits and temperature in words, not by their SEMIF_* variables", () => {
    expect(Object.values(deployFieldLabels).filter((label) => label.includes("SEMIF_"))).toEqual([]);
    expect(deployFieldLabels).toMatchObject({ "limits.maxTokens": "Tokens per decision", temperature: "Temperature" });
  });
});

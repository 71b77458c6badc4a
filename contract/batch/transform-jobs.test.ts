import { describe, expect, it } from "vitest";
import { isBatchModelData, startTransformJobSchema } from "./transform-jobs.ts";

const request = {
  name: "dc-job",
  modelName: "dc-model",
  inputS3Uri: "s3://decision-console-local/batch/inputs/x/",
  instanceType: "ml.c6i.large",
};

describe("start transform job request", () => {
  it("refuses maxConcurrentTransforms × maxPayloadInMB over 100 MB in plain words, and allows exactly 100", () => {
    const wide = startTransformJobSchema.safeParse({ ...request, maxConcurrentTransforms: 11, maxPayloadInMB: 10 });
    expect(wide.success).toBe(false);
    expect(wide.error?.issues).toEqual([
      expect.objectContaining({
        path: ["maxPayloadInMB"],
        message:
          "requests in flight per instance times the largest request body may be at most 100 MB (SageMaker's limit on MaxConcurrentTransforms × MaxPayloadInMB): lower one of them",
      }),
    ]);
    expect(
      startTransformJobSchema.safeParse({ ...request, maxConcurrentTransforms: 10, maxPayloadInMB: 10 }).success,
    ).toBe(true);
    // Either left unset: SageMaker takes it from the container's /execution-parameters when the job starts.
    expect(startTransformJobSchema.safeParse({ ...request, maxConcurrentTransforms: 100 }).success).toBe(true);
  });

  it("checks the job name by TransformJobName's own rule, one message per problem, never as an endpoint name", () => {
    const messages = (name: string) =>
      startTransformJobSchema.safeParse({ ...request, name }).error?.issues.map((issue) => issue.message);
    expect(messages("x".repeat(70))).toEqual(["At most 63 characters; this one has 70."]);
    expect(messages("job_1")).toEqual([
      "Only letters, digits and hyphens, starting and ending with a letter or digit.",
    ]);
    expect(messages("")?.join(" ")).not.toMatch(/endpoint/);
    expect(messages("dc-job-1")).toBeUndefined();
  });

  it("runs only model.tar.gz build outputs (uncompressed model data is ModelDataSource)", () => {
    expect(isBatchModelData("s3://b/models/x/model.tar.gz")).toBe(true);
    expect(isBatchModelData("s3://b/models/x/")).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { startJobProblems } from "./start-job-problems.ts";

const request = {
  name: "dc-job-1",
  modelName: "dc-model",
  inputS3Uri: "s3://decision-console-local/batch/inputs/x/",
  instanceType: "ml.c6i.large" as const,
  instanceCount: 1,
  invocationsTimeoutSeconds: 600,
};

describe("the batch start form's problems", () => {
  it("finds none in a complete request", () => {
    expect(startJobProblems(request, "dc-")).toEqual({ fields: {}, summary: [] });
  });

  it("says a too-long job name once, by its length, and never calls it an endpoint name", () => {
    const problems = startJobProblems({ ...request, name: `dc-${"x".repeat(70)}` }, "dc-");
    expect(problems).toEqual({
      fields: { name: "At most 63 characters; this one has 73." },
      summary: ["Job name: At most 63 characters; this one has 73."],
    });
  });

  it("names the prefix the console's IAM policy allows and the length at the name field", () => {
    expect(startJobProblems({ ...request, name: "job-1" }, "dc-").fields).toEqual({
      name: 'Must start with "dc-" (the prefix the console\'s IAM policy allows) and be at most 63 characters.',
    });
  });

  it("puts each number's rule at its field in plain words", () => {
    const problems = startJobProblems(
      { ...request, instanceCount: 0, maxConcurrentTransforms: 0, invocationsTimeoutSeconds: 0 },
      null,
    );
    expect(problems.fields).toEqual({
      instanceCount: "At least 1 instance.",
      maxConcurrentTransforms: "Must be at least 1.",
      invocationsTimeoutSeconds: "Must be at least 1.",
    });
  });
});

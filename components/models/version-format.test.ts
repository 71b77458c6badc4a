import { describe, expect, it } from "vitest";
import type { EvaluationSummary } from "@/contract/evaluate/evaluations.ts";
import { endpointsServing, runsOfServingEndpoints } from "./version-format.ts";

const model = "a".repeat(64);
const image = `sha256:${"b".repeat(64)}`;
const imageUri = `123456789012.dkr.ecr.us-east-1.amazonaws.com/decision-adapter@${image}`;

const run = (id: string, endpoints: string[], extra: Partial<EvaluationSummary> = {}) =>
  ({ id, endpoints, status: "completed", batch: null, ...extra }) as EvaluationSummary;

describe("the evaluation runs a version can take", () => {
  it("are the completed runs of endpoints that serve its artifact and image, not those of other artifacts", () => {
    const serving = endpointsServing(
      [
        { name: "dc-same", modelSha256: model, imageDigest: image },
        { name: "dc-other-model", modelSha256: "c".repeat(64), imageDigest: image },
        { name: "dc-other-image", modelSha256: model, imageDigest: `sha256:${"d".repeat(64)}` },
        { name: "dc-no-sha-recorded", modelSha256: null, imageDigest: image },
      ],
      { modelSha256: model, imageUri },
    );
    expect([...serving]).toEqual(["dc-same", "dc-no-sha-recorded"]);
    const runs = [
      run("ours", ["dc-same"]),
      run("theirs", ["dc-other-model"]),
      run("running", ["dc-same"], { status: "running" }),
      run("side by side", ["dc-other-image", "dc-same"]),
    ];
    expect(runsOfServingEndpoints(runs, serving).map((r) => r.id)).toEqual(["ours", "side by side"]);
  });

  it("are none until a model build and an image are chosen", () => {
    const endpoints = [{ name: "dc-same", modelSha256: model, imageDigest: image }];
    expect(endpointsServing(endpoints, { modelSha256: null, imageUri }).size).toBe(0);
    expect(endpointsServing(endpoints, { modelSha256: model, imageUri: null }).size).toBe(0);
  });
});

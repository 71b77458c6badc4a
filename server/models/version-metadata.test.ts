import { describe, expect, it } from "vitest";
import type { VersionEvaluation } from "../../contract/models/model-registry.ts";
import { evaluationMetadata, evaluationOf, metadataValue, originMetadata, originOf } from "./version-metadata.ts";

const evaluation: VersionEvaluation = {
  runId: "7c1e3c1a-0000-4000-8000-000000000000",
  target: "dc-candidate",
  datasetName: "tickets (Q3), v2",
  datasetSha256: "a".repeat(64),
  items: 231,
  accuracy: 0.8312,
  brier: 0.12,
  ece: null,
  p50Ms: 41.5,
  p95Ms: 90,
  errors: 0,
  reportUrl: "s3://bucket/evaluation-reports/dc-router/7c1e.json",
  attachedAt: "2026-12-03T17:00:00.000Z",
};

describe("a version's metadata", () => {
  it("keeps only the characters SageMaker allows in a value, at most 256 of them", () => {
    expect(metadataValue("tickets (Q3), v2")).toBe("tickets _Q3__ v2");
    expect(metadataValue("x".repeat(300))).toHaveLength(256);
    expect(metadataValue("s3://b/k-1_2.json=+@")).toBe("s3://b/k-1_2.json=+@");
  });

  it("reads back the evaluation it wrote; an absent figure stays null", () => {
    const read = evaluationOf(evaluationMetadata(evaluation));
    expect(read).toEqual({ ...evaluation, datasetName: "tickets _Q3__ v2" });
  });

  it("has no evaluation until the run, report and time are all there", () => {
    const { "decision-console:evaluation-report": _report, ...partial } = evaluationMetadata(evaluation);
    expect(evaluationOf(partial)).toBeNull();
  });

  it("reads back the origin: builds, source revision, sha256, size and pins", () => {
    const pins = {
      ggufRepo: "o/r",
      ggufRevision: "1".repeat(40),
      ggufFile: "m.gguf",
      tokenizerRepo: null,
      tokenizerRevision: null,
    };
    const origin = originOf(
      originMetadata({
        modelBuildId: "proj:1",
        sourceRevision: "bucket/build-sources/abc.zip",
        modelSha256: "b".repeat(64),
        modelBytes: 1234,
        pins,
      }),
    );
    expect(origin).toEqual({
      build: { modelBuildId: "proj:1", imageBuildId: null, sourceRevision: "bucket/build-sources/abc.zip" },
      modelSha256: "b".repeat(64),
      modelBytes: 1234,
      pins,
    });
  });
});

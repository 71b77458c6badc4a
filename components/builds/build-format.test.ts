import { describe, expect, it } from "vitest";
import type { Build } from "@/contract/builds/builds.ts";
import { apiUrl } from "../api/console-client.ts";
import { buildLabel, deployHref, fileSize, modelOutputLabel, phaseDuration, pinnedImageUri } from "./build-format.ts";

const digest = `sha256:${"c".repeat(64)}`;

function build(overrides: Partial<Build>): Build {
  return {
    id: "proj:1",
    kind: "model",
    variant: null,
    projectName: "proj",
    inputs: {},
    status: "SUCCEEDED",
    currentPhase: "COMPLETED",
    startedAt: null,
    endedAt: null,
    phases: [],
    outputs: { modelDataUrl: null, modelSha256: null, modelBytes: null, imageUri: null, imageDigest: null },
    exportedVariables: {},
    logs: { groupName: null, streamName: null, tailPath: apiUrl("buildLogs", { params: { id: "proj:1" } }) },
    source: null,
    ...overrides,
  };
}

describe("build outputs", () => {
  it("pins a tagged image output by its digest, even with a registry port", () => {
    expect(pinnedImageUri({ ...build({}).outputs, imageUri: "localhost:5000/repo:cpu", imageDigest: digest })).toBe(
      `localhost:5000/repo@${digest}`,
    );
  });

  it("links a finished model build to the deploy form with its model and sha256", () => {
    const href = deployHref(
      build({
        outputs: {
          modelDataUrl: "s3://b/m/model.tar.gz",
          modelSha256: "d".repeat(64),
          modelBytes: 1234,
          imageUri: null,
          imageDigest: null,
        },
      }),
    );
    expect(href).toBe(
      `/deploy?model=${encodeURIComponent("s3://b/m/model.tar.gz")}&sha256=${"d".repeat(64)}&bytes=1234`,
    );
  });

  it("offers no deploy link before the build succeeded", () => {
    const running = build({
      status: "IN_PROGRESS",
      outputs: {
        modelDataUrl: "s3://b/m/model.tar.gz",
        modelSha256: null,
        modelBytes: null,
        imageUri: null,
        imageDigest: null,
      },
    });
    expect(deployHref(running)).toBeNull();
  });
});

describe("model output labels", () => {
  const presets = [
    { label: "SmolLM2-135M-Instruct (demo)", gguf: { sha256: "a".repeat(64) } },
    { label: "Qwen3.5-4B Q4_K_M (AWS sample default)", gguf: { sha256: "b".repeat(64) } },
  ];
  const output = (sha256: string | null) =>
    build({
      id: "decision-console-model-package:0123456789abcdef",
      outputs: {
        modelDataUrl: "s3://decision-console-local/models/seed/SmolLM2-135M-Instruct/model.tar.gz",
        modelSha256: sha256,
        modelBytes: 98_362_432,
        imageUri: null,
        imageDigest: null,
      },
    });

  it("names a build of a preset's GGUF by the preset's label", () => {
    expect(modelOutputLabel(output("a".repeat(64)), presets)).toBe(
      "SmolLM2-135M-Instruct (demo): s3://decision-console-local/models/seed/SmolLM2-135M-Instruct/model.tar.gz (build 89abcdef)",
    );
  });

  it("shows only the artifact and build for any other GGUF", () => {
    expect(modelOutputLabel(output("c".repeat(64)), presets)).toBe(
      "s3://decision-console-local/models/seed/SmolLM2-135M-Instruct/model.tar.gz (build 89abcdef)",
    );
    expect(modelOutputLabel(output(null), undefined)).toBe(
      "s3://decision-console-local/models/seed/SmolLM2-135M-Instruct/model.tar.gz (build 89abcdef)",
    );
  });
});

describe("file sizes", () => {
  it("gives a preset's GGUF size in GB from 1 GB and in MB below", () => {
    expect(fileSize(3_013_027_808)).toBe("3.01 GB");
    expect(fileSize(98_362_432)).toBe("98 MB");
    expect(fileSize(1_000_000_000)).toBe("1.00 GB");
  });
});

describe("a build phase's duration", () => {
  const start = "2026-12-07T10:00:00.000Z";
  const anHourLater = Date.parse("2026-12-07T11:00:00.000Z");

  it("stops counting at the build's end for a phase CodeBuild never ends (COMPLETED)", () => {
    const completed = { startedAt: start, endedAt: null };
    expect(phaseDuration(completed, { endedAt: "2026-12-07T10:00:02.000Z" }, anHourLater)).toBe("2 s");
  });

  it("counts up while the build runs", () => {
    expect(phaseDuration({ startedAt: start, endedAt: null }, { endedAt: null }, anHourLater)).toBe("60 min");
  });

  it("is the phase's own span when it has an end", () => {
    const phase = { startedAt: start, endedAt: "2026-12-07T10:00:30.000Z" };
    expect(phaseDuration(phase, { endedAt: "2026-12-07T10:05:00.000Z" }, anHourLater)).toBe("30 s");
  });
});

describe("a build's name", () => {
  it("is the model it packages, for a first-run seed build that exported no file name too", () => {
    const seeded = build({
      exportedVariables: {},
      inputs: { SOURCE_PATH: "/seed/model.gguf", ARTIFACT_PREFIX: "models/seed/SmolLM2-135M-Instruct" },
    });
    expect(buildLabel(seeded)).toBe("Model packaging: SmolLM2-135M-Instruct");
    const asked = build({ exportedVariables: {}, inputs: { HF_FILE: "Qwen_Qwen3.5-4B-Q4_K_M.gguf" } });
    expect(buildLabel(asked)).toBe("Model packaging: Qwen_Qwen3.5-4B-Q4_K_M.gguf");
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DescribeModelCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import {
  buildSourcesDir,
  type ControlPlane,
  DEFAULT_REGION,
  localAwsEnvironment,
  localClientConfig,
  startControlPlane,
} from "@decision-console/local-aws";
import { testStackFixture, writeTinyModel } from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TransformJobDetail } from "@/contract/batch/transform-jobs.ts";
import type { ConsoleErrorBody } from "@/contract/http/error-body.ts";
import { IMAGE_BUILD_PROJECT, MODEL_PACKAGE_PROJECT } from "@/contract/stack/console-contract.ts";
import { putBuildSource, seedModels, WITHOUT_TRAINED_MODEL } from "@/scripts/local-seed/seed-models.ts";
import { closeConsoleStore } from "@/server/store/console-database.ts";

const LOCAL_ARTIFACT_BUCKET = testStackFixture().bucket;

vi.mock("server-only", () => ({}));

/**
 * POST /api/batch from a model build's output plus an adapter image digest, against the real local control plane:
 * the console creates the job's model (deploy's role, environment and network isolation) from a real packager
 * build and the cpu image, the job runs on real adapter processes; and each source it refuses, with nothing left.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "console-batch-build-output-"));
const saved = { ...process.env };
const base = "http://127.0.0.1:3000";
const inputS3Uri = `s3://${LOCAL_ARTIFACT_BUCKET}/batch/inputs/build-output/`;
let plane: ControlPlane;
let jobs: typeof import("./route.ts");
let job: typeof import("./[name]/route.ts");
let modelBuildId: string;
let cpuDigest: string;

function start(name: string, buildOutput: { buildId: string; imageDigest: string }, overrides: object = {}) {
  return jobs.POST(
    new Request(`${base}/api/batch`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name,
        buildOutput,
        inputS3Uri,
        instanceType: "ml.c6i.large",
        instanceCount: 2,
        ...overrides,
      }),
    }),
  );
}

async function untilEnded(name: string): Promise<TransformJobDetail> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const current: TransformJobDetail = await (
      await job.GET(new Request(`${base}/api/batch/${name}`), { params: Promise.resolve({ name }) })
    ).json();
    if (current.status !== "InProgress" || Date.now() > deadline) return current;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A build of `project` that fails (its variables name nothing it can build), settled. */
async function failedBuild(project: string, variables: Record<string, string>): Promise<string> {
  const source = await putBuildSource(plane);
  const overrides = Object.entries(variables).map(([name, value]) => ({ name, value }));
  const build = plane.builds.start(project, overrides, DEFAULT_REGION, source);
  await plane.builds.settled(build.id);
  return build.id;
}

async function refusal(response: Response): Promise<{ status: number; message: string }> {
  return { status: response.status, message: ((await response.json()) as ConsoleErrorBody).error.message };
}

function adapterDigest(tag: "cpu" | "cuda"): string {
  const digest = plane.registry.digestForTag("decision-adapter", tag);
  if (!digest) throw new Error(`no ${tag} adapter image`);
  return digest;
}

const admin = () => new SageMakerClient(localClientConfig(plane, "admin"));

async function modelExists(name: string): Promise<boolean> {
  return admin()
    .send(new DescribeModelCommand({ ModelName: name }))
    .then(
      () => true,
      () => false,
    );
}

beforeAll(async () => {
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir: path.join(dataDir, "aws"), port: 0 });
  Object.assign(process.env, localAwsEnvironment(plane), { CONSOLE_DATA_DIR: path.join(dataDir, "console") });
  const [tiny] = (await seedModels(plane, WITHOUT_TRAINED_MODEL)).filter((model) => model.name === "synthetic-tiny");
  if (!tiny?.buildId) throw new Error("the tiny model was not built");
  modelBuildId = tiny.buildId;
  cpuDigest = adapterDigest("cpu");
  const lines = Array.from({ length: 7 }, (_, index) =>
    JSON.stringify({
      decision: {
        id: `ticket-${index}`,
        state: `Ticket ${index}: the invoice total is wrong.`,
        question: "Which team should handle this ticket?",
        options: [
          { id: "billing", description: "Billing" },
          { id: "tech", description: "Technical support" },
        ],
      },
    }),
  );
  await plane.objects.putObject(
    LOCAL_ARTIFACT_BUCKET,
    "batch/inputs/build-output/tickets.jsonl",
    Buffer.from(`${lines.join("\n")}\n`),
  );
  jobs = await import("./route.ts");
  job = await import("./[name]/route.ts");
}, 180_000);

afterAll(async () => {
  await plane?.close();
  await closeConsoleStore();
  process.env = saved;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("batch jobs from a build output in local mode", { timeout: 180_000 }, () => {
  it("creates the job's model from the build's artifact and the cpu image, and completes with its outputs", async () => {
    const started = await start("dc-from-build", { buildId: modelBuildId, imageDigest: cpuDigest });
    expect(started.status, await started.clone().text()).toBe(202);
    const model = await admin().send(new DescribeModelCommand({ ModelName: "dc-from-build" }));
    expect(model.EnableNetworkIsolation).toBe(true);
    expect(model.ExecutionRoleArn).toBe(process.env.SAGEMAKER_EXECUTION_ROLE_ARN);
    expect(model.PrimaryContainer?.Image).toMatch(new RegExp(`/decision-adapter@${cpuDigest}$`));
    expect(model.PrimaryContainer?.ModelDataUrl).toBe(
      `s3://${LOCAL_ARTIFACT_BUCKET}/models/seed/synthetic-tiny/model.tar.gz`,
    );
    // The build's sha256, enforced by the adapter as for a deployed endpoint.
    expect(model.PrimaryContainer?.Environment?.ADAPTER_MODEL_SHA256).toMatch(/^[0-9a-f]{64}$/);
    // No console variable: the container gets only what the adapter documents (issue 32, item 11); the build the
    // model runs is a tag on the model, which the console's policy lets it add on CreateModel and read back.
    const consoleVariables = Object.keys(model.PrimaryContainer?.Environment ?? {}).filter((name) =>
      name.startsWith("DECISION_CONSOLE_"),
    );
    expect(consoleVariables).toEqual([]);

    const ended = await untilEnded("dc-from-build");
    expect(ended.status, ended.failureReason ?? "").toBe("Completed");
    expect(ended.modelName).toBe("dc-from-build");
    expect(ended.model).toEqual({ imageUri: model.PrimaryContainer?.Image, sourceBuildId: modelBuildId });
    expect(ended.instanceCount).toBe(2);
    expect(ended.outputs.map((output) => output.s3Uri)).toEqual([
      `s3://${LOCAL_ARTIFACT_BUCKET}/batch/outputs/dc-from-build/tickets.jsonl.out`,
    ]);
    expect(ended.recordsDone).toBe(7);
    const written = plane.objects.find(LOCAL_ARTIFACT_BUCKET, "batch/outputs/dc-from-build/tickets.jsonl.out");
    const answers = fs
      .readFileSync(written?.file ?? "", "utf8")
      .trimEnd()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as {
            decision: { id: string };
            SageMakerOutput: { result: { option_ids: string[]; probabilities: number[] } };
          },
      );
    expect(answers.map((answer) => answer.decision.id)).toEqual(Array.from({ length: 7 }, (_, i) => `ticket-${i}`));
    for (const answer of answers) {
      expect(answer.SageMakerOutput.result.option_ids).toEqual(["billing", "tech"]);
      const total = answer.SageMakerOutput.result.probabilities.reduce((sum, p) => sum + p, 0);
      expect(total).toBeCloseTo(1, 6);
    }
  });

  it("refuses a job name already used, before creating anything", async () => {
    const again = await refusal(await start("dc-from-build", { buildId: modelBuildId, imageDigest: cpuDigest }));
    expect(again.status).toBe(409);
    expect(again.message).toContain('A transform job named "dc-from-build" already exists');
  });

  it("refuses an unknown build, a failed model build and an image build, and leaves no model behind", async () => {
    const unknown = await refusal(
      await start("dc-unknown-build", {
        buildId: `${MODEL_PACKAGE_PROJECT}:00000000-0000-4000-8000-000000000000`,
        imageDigest: cpuDigest,
      }),
    );
    expect(unknown).toEqual({
      status: 404,
      message: `buildOutput.buildId: no console build with id "${MODEL_PACKAGE_PROJECT}:00000000-0000-4000-8000-000000000000".`,
    });
    const failedId = await failedBuild(MODEL_PACKAGE_PROJECT, { SOURCE_PATH: "missing.gguf" });
    const failed = await refusal(await start("dc-failed-build", { buildId: failedId, imageDigest: cpuDigest }));
    expect(failed.status).toBe(400);
    expect(failed.message).toContain(`model build "${failedId}" is FAILED`);
    const imageId = await failedBuild(IMAGE_BUILD_PROJECT, { IMAGE_VARIANT: "none" });
    const image = await refusal(await start("dc-image-build", { buildId: imageId, imageDigest: cpuDigest }));
    expect(image.status).toBe(400);
    expect(image.message).toContain("is an image build; a job runs the output of a model-packaging build");
    for (const name of ["dc-unknown-build", "dc-failed-build", "dc-image-build"]) {
      expect(await modelExists(name)).toBe(false);
    }
  });

  it("refuses a digest that is not in the repository and the cuda image, with the GPU caveat", async () => {
    const absent = `sha256:${"0".repeat(64)}`;
    const missing = await refusal(await start("dc-absent-image", { buildId: modelBuildId, imageDigest: absent }));
    expect(missing).toEqual({
      status: 400,
      message: `buildOutput.imageDigest: ${absent} is not a tagged image of the console's repository "decision-adapter".`,
    });
    const cudaDigest = adapterDigest("cuda");
    const cuda = await refusal(await start("dc-cuda-image", { buildId: modelBuildId, imageDigest: cudaDigest }));
    expect(cuda.status).toBe(400);
    expect(cuda.message).toContain(`${cudaDigest} is the cuda variant`);
    expect(cuda.message).toContain("the CUDA 13 driver is not guaranteed");
    expect(await modelExists("dc-absent-image")).toBe(false);
    expect(await modelExists("dc-cuda-image")).toBe(false);
  });

  it("refuses MaxConcurrentTransforms × MaxPayloadInMB over 100 MB before creating anything", async () => {
    const refused = await refusal(
      await start(
        "dc-too-wide",
        { buildId: modelBuildId, imageDigest: cpuDigest },
        { batchStrategy: "MultiRecord", maxPayloadInMB: 10, maxConcurrentTransforms: 20 },
      ),
    );
    expect(refused.status).toBe(400);
    expect(refused.message).toContain(
      "requests in flight per instance times the largest request body may be at most 100 MB",
    );
    expect(await modelExists("dc-too-wide")).toBe(false);
  });

  it("refuses an input URI over SageMaker's 1,024 characters before it creates a model", async () => {
    const longInput = `${inputS3Uri}${"x".repeat(1024)}/`;
    const refused = await refusal(
      await start("dc-refused-job", { buildId: modelBuildId, imageDigest: cpuDigest }, { inputS3Uri: longInput }),
    );
    expect(refused).toEqual({
      status: 400,
      message: expect.stringMatching(/^inputS3Uri: must be at most 1024 characters \(SageMaker's limit\)/),
    });
    expect(await modelExists("dc-refused-job")).toBe(false);
  });

  it("refuses inputs outside batch/inputs/ and outputs outside batch/outputs/, where the execution role cannot work", async () => {
    const source = { buildId: modelBuildId, imageDigest: cpuDigest };
    const input = await refusal(
      await start("dc-input-elsewhere", source, { inputS3Uri: `s3://${LOCAL_ARTIFACT_BUCKET}/batch/outputs/x/` }),
    );
    expect(input).toEqual({
      status: 400,
      message: `inputS3Uri: must be under s3://${LOCAL_ARTIFACT_BUCKET}/batch/inputs/: the SageMaker execution role reads transform inputs only there (the console keeps batch data under batch/).`,
    });
    const output = await refusal(
      await start("dc-output-elsewhere", source, { outputS3Uri: `s3://${LOCAL_ARTIFACT_BUCKET}/batch/inputs/x/` }),
    );
    expect(output.status).toBe(400);
    expect(output.message).toMatch(/^outputS3Uri: must be under s3:\/\/decision-console-local\/batch\/outputs\/: /);
    for (const name of ["dc-input-elsewhere", "dc-output-elsewhere"]) expect(await modelExists(name)).toBe(false);
  });

  it("refuses an uncompressed build output, saying why, and creates no model", async () => {
    // Local builds package only files under build-sources, as the seed's are.
    const gguf = path.join(buildSourcesDir(plane.dataDir), "seed", "uncompressed.gguf");
    fs.mkdirSync(path.dirname(gguf), { recursive: true });
    writeTinyModel(gguf);
    const build = plane.builds.start(
      MODEL_PACKAGE_PROJECT,
      [
        { name: "SOURCE_PATH", value: gguf },
        { name: "ARTIFACT_PREFIX", value: "models/seed/uncompressed" },
        { name: "COMPRESSION", value: "none" },
      ],
      DEFAULT_REGION,
      await putBuildSource(plane),
    );
    await plane.builds.settled(build.id);
    const refused = await refusal(await start("dc-uncompressed", { buildId: build.id, imageDigest: cpuDigest }));
    expect(refused.status).toBe(400);
    expect(refused.message).toMatch(
      new RegExp(`^buildOutput\\.buildId: model build "${build.id}" packaged its model uncompressed \\(s3://`),
    );
    expect(refused.message).toContain("Batch Transform cannot run a model whose data is uncompressed");
    expect(refused.message).toContain("Package the model with compression Gzip (a model.tar.gz)");
    expect(await modelExists("dc-uncompressed")).toBe(false);
  });

  it("refuses a request naming both a deployed model and a build output", async () => {
    const both = await jobs.POST(
      new Request(`${base}/api/batch`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          name: "dc-both",
          modelName: "dc-from-build",
          buildOutput: { buildId: modelBuildId, imageDigest: cpuDigest },
          inputS3Uri,
          instanceType: "ml.c6i.large",
        }),
      }),
    );
    expect(both.status).toBe(400);
    expect(JSON.stringify(await both.json())).toContain("give exactly one of modelName");
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import {
  CreateModelPackageCommand,
  CreateModelPackageGroupCommand,
  DescribeModelPackageCommand,
  SageMakerClient,
} from "@aws-sdk/client-sagemaker";
import {
  type ControlPlane,
  type HubStandIn,
  localAwsEnvironment,
  localClientConfig,
  publishHubFile,
  startControlPlane,
  startHubStandIn,
} from "@decision-console/local-aws";
import { routeDecision, testStackFixture, writeTinyModel } from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Build } from "@/contract/builds/builds.ts";
import type { EndpointDetail } from "@/contract/endpoints/endpoint.ts";
import type { DatasetSummary } from "@/contract/evaluate/datasets.ts";
import type { EvaluationSummary } from "@/contract/evaluate/evaluations.ts";
import type { ImageList } from "@/contract/images/images.ts";
import type {
  ModelGroupDetail,
  ModelGroupList,
  ModelVersion,
  ModelVersionDetail,
} from "@/contract/models/model-registry.ts";
import { requiredAccess } from "@/server/auth/policy.ts";
import { consoleClientsFor } from "@/server/aws/local-console-clients.ts";
import { newestEvaluationLink } from "@/server/endpoints/evaluation-link.ts";
import { closeConsoleStore, consoleStore } from "@/server/store/console-database.ts";

vi.mock("server-only", () => ({}));

/**
 * The Model Registry through the console's own route handlers, on the local control plane with the console's
 * credentials (so its IAM policy is evaluated): a real model build, a real endpoint of the tiny model, a real
 * evaluation run, then register, attach, approve, deploy from the version and follow the lineage both ways.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "console-registry-"));
const saved = { ...process.env };
const pin = { repo: "local-test/registry", revision: "2".repeat(40), file: "tiny.gguf" };
const GROUP = "dc-registry-router";
const CANDIDATE = "dc-registry-candidate";
const SERVING = "dc-registry-serving";
let plane: ControlPlane;
let hub: HubStandIn;
let ggufSha256: string;
let routes: {
  builds: typeof import("../builds/route.ts");
  build: typeof import("../builds/[id]/route.ts");
  images: typeof import("../images/route.ts");
  endpoints: typeof import("../endpoints/route.ts");
  endpoint: typeof import("../endpoints/[name]/route.ts");
  update: typeof import("../endpoints/[name]/update/route.ts");
  datasets: typeof import("../datasets/route.ts");
  evaluations: typeof import("../evaluations/route.ts");
  evaluation: typeof import("../evaluations/[id]/route.ts");
  models: typeof import("./route.ts");
  group: typeof import("./[group]/route.ts");
  version: typeof import("./[group]/[version]/route.ts");
  approval: typeof import("./[group]/[version]/approval/route.ts");
  attach: typeof import("./[group]/[version]/evaluation/route.ts");
};

const base = "http://127.0.0.1:3000";
const get = (url: string) => new Request(`${base}${url}`);
const send = (url: string, body: unknown) =>
  new Request(`${base}${url}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const ofVersion = (group: string, version: number) => ({
  params: Promise.resolve({ group, version: String(version) }),
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const admin = () => new SageMakerClient(localClientConfig(plane));

async function json<T>(response: Response | Promise<Response>): Promise<{ status: number; body: T }> {
  const answered = await response;
  return { status: answered.status, body: (await answered.json()) as T };
}

let modelBuild: Build;
let imageUri: string;
let runId: string;

async function deployFrom(name: string, fields: Record<string, unknown>) {
  return json<{ error?: { message: string } }>(
    routes.endpoints.POST(
      send("/api/endpoints", {
        name,
        compute: { kind: "cpu", instanceType: "ml.c6i.large", threads: 1 },
        ...fields,
      }),
    ),
  );
}

async function inService(name: string) {
  await plane.endpoints.settled(name);
  return until(
    async () =>
      (
        await json<EndpointDetail>(
          routes.endpoint.GET(get(`/api/endpoints/${name}`), { params: Promise.resolve({ name }) }),
        )
      ).body,
    (detail) => detail.status === "InService" || detail.status === "Failed",
  );
}

async function register(body: Record<string, unknown>) {
  return json<ModelVersion & { error?: { message: string } }>(routes.models.POST(send("/api/models", body)));
}

async function decide(version: number, status: string, note = "JevBench accuracy holds") {
  return json<ModelVersion & { error?: { message: string } }>(
    routes.approval.POST(send(`/api/models/${GROUP}/${version}/approval`, { status, note }), ofVersion(GROUP, version)),
  );
}

beforeAll(async () => {
  const gguf = path.join(dataDir, "tiny.gguf");
  writeTinyModel(gguf);
  ggufSha256 = (await import("node:crypto")).createHash("sha256").update(fs.readFileSync(gguf)).digest("hex");
  publishHubFile(path.join(dataDir, "hub"), pin, gguf);
  hub = await startHubStandIn({ root: path.join(dataDir, "hub") });
  plane = await startControlPlane({
    fixture: testStackFixture(),
    dataDir: path.join(dataDir, "aws"),
    port: 0,
    hfEndpoint: hub.url,
  });
  Object.assign(process.env, localAwsEnvironment(plane), { CONSOLE_DATA_DIR: path.join(dataDir, "console") });
  routes = {
    builds: await import("../builds/route.ts"),
    build: await import("../builds/[id]/route.ts"),
    images: await import("../images/route.ts"),
    endpoints: await import("../endpoints/route.ts"),
    endpoint: await import("../endpoints/[name]/route.ts"),
    update: await import("../endpoints/[name]/update/route.ts"),
    datasets: await import("../datasets/route.ts"),
    evaluations: await import("../evaluations/route.ts"),
    evaluation: await import("../evaluations/[id]/route.ts"),
    models: await import("./route.ts"),
    group: await import("./[group]/route.ts"),
    version: await import("./[group]/[version]/route.ts"),
    approval: await import("./[group]/[version]/approval/route.ts"),
    attach: await import("./[group]/[version]/evaluation/route.ts"),
  };
}, 180_000);

afterAll(async () => {
  await plane?.close();
  await hub?.close();
  await closeConsoleStore();
  process.env = saved;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the Model Registry on the local control plane", { timeout: 180_000 }, () => {
  it("packages a model, deploys it as a candidate and evaluates it", async () => {
    const started = await json<Build>(
      routes.builds.POST(send("/api/builds", { kind: "model", gguf: { ...pin, sha256: ggufSha256 } })),
    );
    expect(started.status).toBe(202);
    const id = started.body.id;
    modelBuild = await until(
      async () =>
        (await json<Build>(routes.build.GET(get(`/api/builds/${id}`), { params: Promise.resolve({ id }) }))).body,
      (build) => build.status !== "IN_PROGRESS",
    );
    expect(modelBuild.status).toBe("SUCCEEDED");
    expect(modelBuild.inputs).toMatchObject({ HF_REPO: pin.repo, HF_REVISION: pin.revision, HF_FILE: pin.file });
    const images = (await json<ImageList>(routes.images.GET(get("/api/images")))).body;
    imageUri = images.images.find((image) => image.source === "ecr" && image.variant === "cpu")?.imageUri ?? "";
    expect(imageUri).toMatch(/@sha256:/);

    const { modelDataUrl, modelSha256 } = modelBuild.outputs;
    expect((await deployFrom(CANDIDATE, { imageUri, modelDataUrl, modelSha256 })).status).toBe(202);
    expect((await inService(CANDIDATE)).status).toBe("InService");

    const items = Array.from({ length: 3 }, (_, i) =>
      JSON.stringify({ ...routeDecision.decision, id: `route-${i}`, answer: "billing" }),
    ).join("\n");
    const dataset = await json<DatasetSummary>(
      routes.datasets.POST(send("/api/datasets", { name: "registry routing", text: items, format: "jsonl" })),
    );
    expect(dataset.status).toBe(201);
    const run = await json<EvaluationSummary>(
      routes.evaluations.POST(send("/api/evaluations", { datasetId: dataset.body.id, endpoints: [CANDIDATE] })),
    );
    expect(run.status).toBe(201);
    runId = run.body.id;
    const finished = await until(
      async () =>
        (
          await json<EvaluationSummary>(
            routes.evaluation.GET(get(`/api/evaluations/${runId}`), { params: Promise.resolve({ id: runId }) }),
          )
        ).body,
      (summary) => summary.status !== "running",
    );
    expect(finished.status).toBe("completed");
  });

  it("refuses a group outside the console's prefix, before and at IAM", async () => {
    const refused = await register({ group: "team-b-router", modelBuildId: modelBuild.id, imageUri });
    expect(refused.status).toBe(403);
    expect(refused.body.error?.message).toContain("dc-");
    const sdk = consoleClientsFor(plane).sageMaker;
    await expect(
      sdk.send(new CreateModelPackageGroupCommand({ ModelPackageGroupName: "team-b-router" })),
    ).rejects.toMatchObject({
      name: "AccessDeniedException",
    });
  });

  it("registers the build's output with the evaluation: ModelMetrics, the report in S3, the pins", async () => {
    const registered = await register({
      group: GROUP,
      groupDescription: "Routes support tickets",
      modelBuildId: modelBuild.id,
      imageUri,
      evaluationId: runId,
      description: "first candidate",
    });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({
      group: GROUP,
      version: 1,
      status: "PendingManualApproval",
      imageUri,
      modelDataUrl: modelBuild.outputs.modelDataUrl,
      modelSha256: ggufSha256,
      build: { modelBuildId: modelBuild.id, sourceRevision: modelBuild.source?.location },
      pins: { ggufRepo: pin.repo, ggufRevision: pin.revision, ggufFile: pin.file },
      evaluation: { runId, target: CANDIDATE, datasetName: "registry routing", items: 3 },
    });
    expect(registered.body.evaluation?.datasetSha256).toMatch(/^[0-9a-f]{64}$/);
    const described = await admin().send(new DescribeModelPackageCommand({ ModelPackageName: registered.body.arn }));
    const reportUrl = described.ModelMetrics?.ModelQuality?.Statistics?.S3Uri ?? "";
    expect(reportUrl).toBe(registered.body.evaluation?.reportUrl);
    const [, bucket, key] = /^s3:\/\/([^/]+)\/(.+)$/.exec(reportUrl) ?? [];
    const report = await new S3Client({ ...localClientConfig(plane), forcePathStyle: true }).send(
      new GetObjectCommand({ Bucket: bucket, Key: key }),
    );
    const body = JSON.parse((await report.Body?.transformToString()) ?? "{}");
    expect(body.metrics.accuracy.total).toBe(3);
    expect(body.dataset.sha256).toBe(registered.body.evaluation?.datasetSha256);
  });

  it("will not deploy a pending version", async () => {
    const v1 = (await json<ModelVersion>(routes.version.GET(get(`/api/models/${GROUP}/1`), ofVersion(GROUP, 1)))).body;
    const refused = await deployFrom(SERVING, {
      modelVersionArn: v1.arn,
      imageUri,
      modelDataUrl: v1.modelDataUrl,
      modelSha256: v1.modelSha256,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error?.message).toContain("PendingManualApproval");
  });

  it("refuses bad approval transitions: no evaluation, twice in a row", async () => {
    const bare = await register({ group: GROUP, modelBuildId: modelBuild.id, imageUri });
    expect(bare.body.version).toBe(2);
    const noEvaluation = await decide(2, "Approved");
    expect(noEvaluation.status).toBe(409);
    expect(noEvaluation.body.error?.message).toContain("Attach an evaluation");
    expect((await decide(2, "Rejected", "not evaluated")).status).toBe(200);
    const twice = await decide(2, "Rejected");
    expect(twice.status).toBe(409);
    const attached = await json<ModelVersion>(
      routes.attach.POST(send(`/api/models/${GROUP}/2/evaluation`, { evaluationId: runId }), ofVersion(GROUP, 2)),
    );
    expect(attached.status).toBe(200);
    expect(attached.body.evaluation?.runId).toBe(runId);
    const empty = await json<{ error?: { message: string } }>(
      routes.approval.POST(
        send(`/api/models/${GROUP}/2/approval`, { status: "Approved", note: " " }),
        ofVersion(GROUP, 2),
      ),
    );
    expect(empty.status).toBe(400);
    const pending = await json<{ error?: { message: string } }>(
      routes.approval.POST(
        send(`/api/models/${GROUP}/2/approval`, { status: "PendingManualApproval", note: "x" }),
        ofVersion(GROUP, 2),
      ),
    );
    expect(pending.status).toBe(400);
  });

  it("will not deploy a rejected version", async () => {
    const v2 = (await json<ModelVersion>(routes.version.GET(get(`/api/models/${GROUP}/2`), ofVersion(GROUP, 2)))).body;
    expect(v2.status).toBe("Rejected");
    const refused = await deployFrom(SERVING, { modelVersionArn: v2.arn, imageUri, modelDataUrl: v2.modelDataUrl });
    expect(refused.status).toBe(409);
    expect(refused.body.error?.message).toContain("Rejected");
  });

  it("will not deploy a version of another team's group", async () => {
    const sdk = admin();
    await sdk.send(new CreateModelPackageGroupCommand({ ModelPackageGroupName: "team-b-ranker" }));
    const created = await sdk.send(
      new CreateModelPackageCommand({
        ModelPackageGroupName: "team-b-ranker",
        ModelApprovalStatus: "Approved",
        InferenceSpecification: {
          Containers: [{ Image: imageUri, ModelDataUrl: modelBuild.outputs.modelDataUrl ?? "" }],
          SupportedContentTypes: ["application/json"],
          SupportedResponseMIMETypes: ["application/json"],
        },
      }),
    );
    const refused = await deployFrom(SERVING, {
      modelVersionArn: created.ModelPackageArn,
      imageUri,
      modelDataUrl: modelBuild.outputs.modelDataUrl,
    });
    expect(refused.status).toBe(403);
    const group = await json<{ error?: { message: string } }>(
      routes.group.GET(get("/api/models/team-b-ranker"), { params: Promise.resolve({ group: "team-b-ranker" }) }),
    );
    expect(group.status).toBe(403);
    const console = consoleClientsFor(plane).sageMaker;
    await expect(
      console.send(new DescribeModelPackageCommand({ ModelPackageName: created.ModelPackageArn })),
    ).rejects.toMatchObject({ name: "AccessDeniedException" });
    const listed = (await json<ModelGroupList>(routes.models.GET(get("/api/models")))).body;
    expect(listed.groups.map((g) => g.name)).toEqual([GROUP]);
  });

  it("approves, deploys the approved version and follows the lineage both ways", async () => {
    const approved = await decide(1, "Approved");
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: "Approved", approvalNote: "JevBench accuracy holds" });
    const attachLate = await json<{ error?: { message: string } }>(
      routes.attach.POST(send(`/api/models/${GROUP}/1/evaluation`, { evaluationId: runId }), ofVersion(GROUP, 1)),
    );
    expect(attachLate.status).toBe(409);

    const other = await deployFrom(SERVING, {
      modelVersionArn: approved.body.arn,
      imageUri,
      modelDataUrl: `${approved.body.modelDataUrl}.other`,
    });
    expect(other.status).toBe(400);
    const deployed = await deployFrom(SERVING, {
      modelVersionArn: approved.body.arn,
      imageUri,
      modelDataUrl: approved.body.modelDataUrl,
      modelSha256: approved.body.modelSha256,
    });
    expect(deployed.status, JSON.stringify(deployed.body)).toBe(202);
    const serving = await inService(SERVING);
    expect(serving.status).toBe("InService");
    expect(serving.model.modelVersionArn).toBe(approved.body.arn);
    // The version's attached evaluation is what the endpoint's realised quality is compared with.
    expect(await newestEvaluationLink(consoleStore(), SERVING)).toMatchObject({ runId, why: "deployed", by: "local" });
    // It stands for the version the endpoint's model names (DescribeModel's ModelPackageName), not for another.
    expect(await newestEvaluationLink(consoleStore(), SERVING, serving.model.modelVersionArn)).toMatchObject({ runId });
    expect(await newestEvaluationLink(consoleStore(), SERVING, `${approved.body.arn}0`)).toBeNull();

    const detail = (
      await json<ModelVersionDetail>(routes.version.GET(get(`/api/models/${GROUP}/1`), ofVersion(GROUP, 1)))
    ).body;
    expect(detail.endpoints).toEqual([SERVING]);
    const group = (
      await json<ModelGroupDetail>(
        routes.group.GET(get(`/api/models/${GROUP}`), { params: Promise.resolve({ group: GROUP }) }),
      )
    ).body;
    expect(group.versions.map((v) => [v.version, v.status])).toEqual([
      [2, "Rejected"],
      [1, "Approved"],
    ]);
    // Revoking an approval keeps the endpoint serving (as SageMaker does); a new deployment of it is refused.
    expect((await decide(1, "Rejected", "revoked: drifted")).status).toBe(200);
    const again = await deployFrom("dc-registry-third", {
      modelVersionArn: approved.body.arn,
      imageUri,
      modelDataUrl: approved.body.modelDataUrl,
    });
    expect(again.status).toBe(409);
    const after = (
      await json<ModelVersionDetail>(routes.version.GET(get(`/api/models/${GROUP}/1`), ofVersion(GROUP, 1)))
    ).body;
    expect(after).toMatchObject({ status: "Rejected", approvalNote: "revoked: drifted", endpoints: [SERVING] });
  });

  it("updates the endpoint to another Approved version; a change of image by hand is refused", async () => {
    const v3 = await register({ group: GROUP, modelBuildId: modelBuild.id, imageUri, evaluationId: runId });
    expect(v3.body.version).toBe(3);
    expect((await decide(3, "Approved", "same artifact, re-registered")).status).toBe(200);
    const update = (change: Record<string, unknown>) =>
      json<{ error?: { message: string } }>(
        routes.update.POST(
          send(`/api/endpoints/${SERVING}/update`, {
            change,
            strategy: { kind: "all-at-once", waitSeconds: 0 },
            alarms: { kind: "none" },
          }),
          { params: Promise.resolve({ name: SERVING }) },
        ),
      );
    const byHand = await update({ imageUri: imageUri.replace(/@sha256:.*/, `@sha256:${"0".repeat(64)}`) });
    expect(byHand.status).toBe(400);
    expect(byHand.body.error?.message).toContain("updating it to another Approved version");
    const moved = await update({ modelVersionArn: v3.body.arn });
    expect(moved.status, JSON.stringify(moved.body)).toBe(202);
    const detail = await until(
      async () =>
        (
          await json<EndpointDetail>(
            routes.endpoint.GET(get(`/api/endpoints/${SERVING}`), { params: Promise.resolve({ name: SERVING }) }),
          )
        ).body,
      (endpoint) => endpoint.status === "InService" && endpoint.model.modelVersionArn === v3.body.arn,
    );
    expect(detail.model.modelVersionArn).toBe(v3.body.arn);
    const link = await newestEvaluationLink(consoleStore(), SERVING, detail.model.modelVersionArn);
    expect(link).toMatchObject({ runId, why: "updated", by: "local" });
    const served = (
      await json<ModelVersionDetail>(routes.version.GET(get(`/api/models/${GROUP}/3`), ofVersion(GROUP, 3)))
    ).body;
    expect(served.endpoints).toEqual([SERVING]);
  });

  it("needs an operator to register, attach and approve; a viewer reads", () => {
    expect(requiredAccess("/api/models", "POST")).toBe("operator");
    expect(requiredAccess("/api/models/dc-x/1/approval", "POST")).toBe("operator");
    expect(requiredAccess("/api/models/dc-x/1/evaluation", "POST")).toBe("operator");
    expect(requiredAccess("/api/models/dc-x/1", "GET")).toBe("viewer");
  });
});

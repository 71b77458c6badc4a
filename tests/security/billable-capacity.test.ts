import { CreateModelCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import { localClientConfig } from "@decision-console/local-aws";
import { localAdapterImageUri, testExecutionRoleArn, testStackFixture } from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditRecord } from "@/contract/audit/audit.ts";
import { type LocalConsole, startLocalConsole, uploadDataset } from "./local-console.ts";

const LOCAL_ARTIFACT_BUCKET = testStackFixture().bucket;

/**
 * Security issue 25, item 3: an evaluation in a batch transform job starts paid instances (up to 20 of a type), so
 * it needs the operator role, as POST /api/batch does; and its audit rows name the model and the job it started.
 */

let local: LocalConsole;
let datasetId: string;
const model = "dc-billable-model";
beforeAll(async () => {
  local = await startLocalConsole();
  datasetId = await uploadDataset(local);
  // A model the job can be created on; its data does not exist, so the job fails on its own without a container.
  await new SageMakerClient(localClientConfig(local.plane, "admin")).send(
    new CreateModelCommand({
      ModelName: model,
      ExecutionRoleArn: testExecutionRoleArn(),
      EnableNetworkIsolation: true,
      PrimaryContainer: {
        Image: localAdapterImageUri(local.plane),
        ModelDataUrl: `s3://${LOCAL_ARTIFACT_BUCKET}/models/${model}/absent.tar.gz`,
      },
    }),
  );
});
afterAll(() => local?.close());

const batch = (modelName: string) => ({ modelName, instanceType: "ml.m5.large", instanceCount: 20 });

async function auditRows(action: string): Promise<AuditRecord[]> {
  const response = await local.send("GET", `/api/audit?action=${action}`);
  return ((await response.json()) as { records: AuditRecord[] }).records;
}

async function evaluationCount(): Promise<number> {
  const response = await local.send("GET", "/api/evaluations", { as: "viewer" });
  return ((await response.json()) as { evaluations: unknown[] }).evaluations.length;
}

describe("an evaluation in a batch transform job", () => {
  it("is refused to a viewer with a 403 before anything is created", async () => {
    const before = { aws: local.plane.traffic.requests, runs: await evaluationCount() };
    const response = await local.send("POST", "/api/evaluations", {
      as: "viewer",
      body: { datasetId, batch: batch(model) },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: {
        code: "forbidden",
        message:
          "An evaluation in a batch transform job starts paid instances: it needs the operator role; vera is a viewer.",
      },
    });
    expect({ aws: local.plane.traffic.requests, runs: await evaluationCount() }).toEqual(before);
    expect(await auditRows("transform-job.start")).toEqual([]);
  });

  it("is still open to a viewer on endpoints (no new capacity)", async () => {
    const response = await local.send("POST", "/api/evaluations", {
      as: "viewer",
      body: { datasetId, endpoints: [`${local.prefix}no-such-xyz`] },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/there is no endpoint/);
  });

  it("started by an operator is audited with the model it evaluates and the transform job it started", async () => {
    const response = await local.send("POST", "/api/evaluations", { body: { datasetId, batch: batch(model) } });
    expect(response.status, await response.clone().text()).toBe(201);
    const run = (await response.json()) as { id: string };
    const [started] = await auditRows("evaluation.start");
    expect(started).toMatchObject({ actor: "otto", target: model, result: "ok" });
    const [job] = await auditRows("transform-job.start");
    expect(job).toMatchObject({ actor: "otto", result: "ok", detail: { evaluation: run.id, modelName: model } });
    expect(job?.target).toMatch(/^dc-eval-[0-9a-f]{16}$/);
    await local.send("POST", `/api/evaluations/${run.id}/cancel`);
  });

  it("refused by SageMaker for an operator is audited as a failed start of the job it named", async () => {
    const response = await local.send("POST", "/api/evaluations", {
      body: { datasetId, batch: batch(`${local.prefix}no-such-model`) },
    });
    expect(response.status).toBe(404);
    const [started] = await auditRows("evaluation.start");
    expect(started).toMatchObject({ target: `${local.prefix}no-such-model`, result: "error" });
    const [job] = await auditRows("transform-job.start");
    expect(job).toMatchObject({ result: "error", detail: { request: { modelName: `${local.prefix}no-such-model` } } });
    expect(job?.target).toMatch(/^dc-eval-[0-9a-f]{16}$/);
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { InvokeEndpointCommand, SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import {
  type ControlPlane,
  localAwsEnvironment,
  localClientConfig,
  startControlPlane,
} from "@decision-console/local-aws";
import { testStackFixture, writeTinyModel } from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { EndpointDetail } from "@/contract/endpoints/endpoint.ts";
import type { EndpointMetricsResponse } from "@/contract/endpoints/metrics.ts";
import type { ImageList } from "@/contract/images/images.ts";
import type { AsyncInvocation, AsyncOutcome, AsyncRequestList } from "@/contract/invoke/invoke-async.ts";
import { closeConsoleStore } from "@/server/store/console-database.ts";

const LOCAL_ARTIFACT_BUCKET = testStackFixture().bucket;

vi.mock("server-only", () => ({}));

/**
 * The console's asynchronous path through its own route handlers, on the local control plane and a real adapter:
 * deploy with `invocation: {mode: "asynchronous"}`, submit through invoke-async, poll the outcome until the
 * decision is there; and the 4xx a person gets for what cannot work.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "console-async-routes-"));
const saved = { ...process.env };
const ASYNC = "dc-route-async";
const REAL_TIME = "dc-route-realtime";
let plane: ControlPlane;
let endpoints: typeof import("./route.ts");
let endpoint: typeof import("./[name]/route.ts");
let submit: typeof import("./[name]/invoke-async/route.ts");
let outcome: typeof import("./[name]/invoke-async/[inferenceId]/route.ts");
let metrics: typeof import("./[name]/metrics/route.ts");
let asyncRequests: typeof import("./[name]/async-requests/route.ts");

const base = "http://127.0.0.1:3000";
const send = (url: string, body: unknown) =>
  new Request(`${base}${url}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const named = (name: string) => ({ params: Promise.resolve({ name }) });
const decision = (options = ["billing", "tech"]) => ({
  decision: {
    id: "route-async",
    state: "Customer: I was charged twice for my subscription this month.",
    question: "Which team should handle this ticket?",
    options: options.map((id) => ({ id, description: `The ${id} team` })),
  },
});

async function detailOf(name: string) {
  return (await (
    await endpoint.GET(new Request(`${base}/api/endpoints/${name}`), named(name))
  ).json()) as EndpointDetail;
}

async function look(name: string, inferenceId: string): Promise<AsyncOutcome> {
  const response = await outcome.GET(new Request(`${base}/api/endpoints/${name}/invoke-async/${inferenceId}`), {
    params: Promise.resolve({ name, inferenceId }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as AsyncOutcome;
}

async function poll(name: string, inferenceId: string): Promise<AsyncOutcome> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const seen = await look(name, inferenceId);
    if (seen.status !== "pending" || Date.now() > deadline) return seen;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir: path.join(dataDir, "aws"), port: 0 });
  Object.assign(process.env, localAwsEnvironment(plane), { CONSOLE_DATA_DIR: path.join(dataDir, "console") });
  endpoints = await import("./route.ts");
  endpoint = await import("./[name]/route.ts");
  submit = await import("./[name]/invoke-async/route.ts");
  outcome = await import("./[name]/invoke-async/[inferenceId]/route.ts");
  metrics = await import("./[name]/metrics/route.ts");
  asyncRequests = await import("./[name]/async-requests/route.ts");
  const images = await import("../images/route.ts");
  const gguf = path.join(dataDir, "tiny.gguf");
  writeTinyModel(gguf);
  const s3 = new S3Client({ ...localClientConfig(plane, "admin"), forcePathStyle: true });
  await s3.send(
    new PutObjectCommand({
      Bucket: LOCAL_ARTIFACT_BUCKET,
      Key: "models/route-async/model.gguf",
      Body: fs.readFileSync(gguf),
    }),
  );
  const list = (await (await images.GET(new Request(`${base}/api/images`))).json()) as ImageList;
  const imageUri = list.images.find((image) => image.tags.includes("cpu"))!.imageUri;
  for (const [name, invocation] of [
    [ASYNC, { mode: "asynchronous", maxConcurrentInvocationsPerInstance: 2 }],
    [REAL_TIME, { mode: "real-time" }],
  ] as const) {
    const deployed = await endpoints.POST(
      send("/api/endpoints", {
        name,
        imageUri,
        modelDataUrl: `s3://${LOCAL_ARTIFACT_BUCKET}/models/route-async/`,
        compression: "None",
        compute: { kind: "cpu", instanceType: "ml.c6i.large", threads: 1 },
        parallel: 2,
        invocation,
      }),
    );
    expect(deployed.status).toBe(202);
    await plane.endpoints.settled(name);
  }
});

afterAll(async () => {
  await plane?.close();
  await closeConsoleStore();
  process.env = saved;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("asynchronous endpoints through the console's routes", { timeout: 120_000 }, () => {
  it("shows the endpoint's AsyncInferenceConfig under async/<endpoint>/ of the artifact bucket", async () => {
    const detail = await detailOf(ASYNC);
    expect(detail.status).toBe("InService");
    expect(detail.asyncInference).toEqual({
      outputPath: `s3://${LOCAL_ARTIFACT_BUCKET}/async/${ASYNC}/out/`,
      failurePath: `s3://${LOCAL_ARTIFACT_BUCKET}/async/${ASYNC}/failed/`,
      maxConcurrentInvocationsPerInstance: 2,
      successTopic: null,
      errorTopic: null,
    });
    expect((await detailOf(REAL_TIME)).asyncInference).toBeNull();
  });

  it("queues a decision with 202 and then answers it with the adapter's probabilities", async () => {
    const response = await submit.POST(
      send(`/api/endpoints/${ASYNC}/invoke-async`, { body: decision() }),
      named(ASYNC),
    );
    expect(response.status).toBe(202);
    const queued = (await response.json()) as AsyncInvocation;
    expect(queued.inputLocation).toMatch(
      new RegExp(`^s3://${LOCAL_ARTIFACT_BUCKET}/async/${ASYNC}/in/[0-9a-f-]{36}\\.json$`),
    );
    const done = await poll(ASYNC, queued.inferenceId);
    expect(done.status).toBe("completed");
    const answer = (done.body as { result: { option_ids: string[]; probabilities: number[] } }).result;
    expect(answer.option_ids).toEqual(["billing", "tech"]);
    expect(answer.probabilities.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
  });

  it("charts the backlog the local CloudWatch holds for the endpoint, and its instance count", async () => {
    const response = await submit.POST(
      send(`/api/endpoints/${ASYNC}/invoke-async`, { body: decision() }),
      named(ASYNC),
    );
    plane.backlogMetrics.publish();
    await poll(ASYNC, ((await response.json()) as AsyncInvocation).inferenceId);
    const charted = (await (
      await metrics.GET(new Request(`${base}/api/endpoints/${ASYNC}/metrics?minutes=60&periodSeconds=60`), named(ASYNC))
    ).json()) as EndpointMetricsResponse;
    const backlog = charted.series.find((series) => series.metric === "ApproximateBacklogSize");
    expect(backlog?.points.length).toBeGreaterThan(0);
    // Its invocations count in InvocationsProcesssed; an asynchronous endpoint publishes no Invocations.
    const total = (metric: string) =>
      (charted.series.find((series) => series.metric === metric)?.points ?? []).reduce((sum, p) => sum + p.value, 0);
    expect(total("InvocationsProcesssed")).toBeGreaterThanOrEqual(1);
    expect(total("Invocations")).toBe(0);
    expect(charted.series.find((series) => series.metric === "ApproximateAgeOfOldestRequest")?.unit).toBe("Seconds");
    // No scaling activity yet: the count it was created with, from its creation on.
    expect(charted.instances.map((series) => [series.variantName, series.points.map((p) => p.value)])).toEqual([
      ["AllTraffic", [1]],
    ]);
  });

  it("lets the evaluation runner's invoker score on an asynchronous endpoint as on a real-time one", async () => {
    const { consoleContext } = await import("@/server/context.ts");
    const { invoke } = consoleContext().evaluation;
    const item = { runId: "run-invoker", slot: 0, position: 0, itemId: "route-async" };
    for (const name of [ASYNC, REAL_TIME]) {
      const answered = await invoke(name, decision(), { item });
      expect(answered.status).toBe(200);
      expect((answered.body as { result: { option_ids: string[] } }).result.option_ids).toEqual(["billing", "tech"]);
    }
    const failed = await invoke(ASYNC, decision(["only-one"]), { item: { ...item, position: 1 } });
    expect(failed.status).toBe(500);
    expect(JSON.stringify(failed.body)).toContain("options");
  });

  it("answers an invocation with a request id, as AWS does (the SDK's $metadata.requestId)", async () => {
    const runtime = new SageMakerRuntimeClient(localClientConfig(plane, "admin"));
    const answered = await runtime.send(
      new InvokeEndpointCommand({
        EndpointName: REAL_TIME,
        ContentType: "application/json",
        Body: JSON.stringify(decision()),
      }),
    );
    runtime.destroy();
    expect(answered.$metadata.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("reports a decision the adapter refuses as failed, with the adapter's message", async () => {
    const response = await submit.POST(
      send(`/api/endpoints/${ASYNC}/invoke-async`, { body: decision(["only-one"]) }),
      named(ASYNC),
    );
    const failed = await poll(ASYNC, ((await response.json()) as AsyncInvocation).inferenceId);
    expect(failed.status).toBe("failed");
    expect(JSON.stringify(failed.body)).toContain("options");
  });

  it("answers 400 for a real-time endpoint, a non-JSON body, a missing body and an inference id that names a path", async () => {
    const realTime = await submit.POST(
      send(`/api/endpoints/${REAL_TIME}/invoke-async`, { body: decision() }),
      named(REAL_TIME),
    );
    expect(realTime.status).toBe(400);
    expect(((await realTime.json()) as { error: { message: string } }).error.message).toContain("real-time endpoint");
    expect(plane.objects.list(LOCAL_ARTIFACT_BUCKET, `async/${REAL_TIME}/`, "", 10)).toEqual([]);
    const notJson = await submit.POST(send(`/api/endpoints/${ASYNC}/invoke-async`, "{not json"), named(ASYNC));
    expect(notJson.status).toBe(400);
    const noBody = await submit.POST(send(`/api/endpoints/${ASYNC}/invoke-async`, {}), named(ASYNC));
    expect(noBody.status).toBe(400);
    const traversal = await outcome.GET(new Request(`${base}/api/endpoints/${ASYNC}/invoke-async/x`), {
      params: Promise.resolve({ name: ASYNC, inferenceId: "../../models/x" }),
    });
    expect(traversal.status).toBe(400);
  });

  it("reads a request's outcome at the locations SageMaker returned, recorded when the console sent it", async () => {
    const response = await submit.POST(
      send(`/api/endpoints/${ASYNC}/invoke-async`, { body: decision() }),
      named(ASYNC),
    );
    const queued = (await response.json()) as AsyncInvocation;
    expect((await poll(ASYNC, queued.inferenceId)).status).toBe("completed");
    // Were the record to name another answer, that one is read: the route never derives keys from the InferenceId.
    const elsewhere = `async/${ASYNC}/out/elsewhere-${queued.inferenceId}.out`;
    await new S3Client({ ...localClientConfig(plane, "admin"), forcePathStyle: true }).send(
      new PutObjectCommand({ Bucket: LOCAL_ARTIFACT_BUCKET, Key: elsewhere, Body: '{"read":"elsewhere"}' }),
    );
    const { consoleContext } = await import("@/server/context.ts");
    await consoleContext()
      .store.updateTable("async_requests")
      .set({ output_location: `s3://${LOCAL_ARTIFACT_BUCKET}/${elsewhere}` })
      .where("inference_id", "=", queued.inferenceId)
      .execute();
    expect(await look(ASYNC, queued.inferenceId)).toMatchObject({ status: "completed", body: { read: "elsewhere" } });
  });

  it("answers 404 for an inference id this console did not send to the endpoint", async () => {
    const lookUp = (name: string, inferenceId: string) =>
      outcome.GET(new Request(`${base}/api/endpoints/${name}/invoke-async/${inferenceId}`), {
        params: Promise.resolve({ name, inferenceId }),
      });
    const unknown = await lookUp(ASYNC, "00000000-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toContain(
      `No asynchronous request "00000000-0000-4000-8000-000000000000" sent by this console to endpoint "${ASYNC}"`,
    );
    const response = await submit.POST(
      send(`/api/endpoints/${ASYNC}/invoke-async`, { body: decision() }),
      named(ASYNC),
    );
    const { inferenceId } = (await response.json()) as AsyncInvocation;
    expect((await lookUp(REAL_TIME, inferenceId)).status).toBe(404);
    expect((await poll(ASYNC, inferenceId)).status).toBe("completed");
  });

  it("lists the playground's and an evaluation's requests with their S3 locations; S3 moves them to done", async () => {
    const listed = async () => {
      const response = await asyncRequests.GET(
        new Request(`${base}/api/endpoints/${ASYNC}/async-requests?limit=5`),
        named(ASYNC),
      );
      expect(response.status).toBe(200);
      return ((await response.json()) as AsyncRequestList).requests;
    };
    const { consoleContext } = await import("@/server/context.ts");
    const { store, evaluation } = consoleContext();
    const item = { runId: "run-listed", slot: 0, position: 3, itemId: "listed-item" };
    await evaluation.invoke(ASYNC, decision(), { item });
    const response = await submit.POST(
      send(`/api/endpoints/${ASYNC}/invoke-async`, { body: decision() }),
      named(ASYNC),
    );
    const queued = (await response.json()) as AsyncInvocation;
    const recorded = await store
      .selectFrom("async_requests")
      .select("state")
      .where("inference_id", "=", queued.inferenceId)
      .executeTakeFirst();
    expect(recorded).toEqual({ state: "queued" });

    // Only the listing looks at S3 here (the outcome route is never asked), so "done" comes from its S3 listing.
    const deadline = Date.now() + 60_000;
    let requests = await listed();
    while (requests[0]?.state === "queued" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      requests = await listed();
    }
    const [playground, evaluated] = requests;
    expect(playground).toMatchObject({
      ...queued,
      endpointName: ASYNC,
      sentBy: { kind: "playground" },
      state: "done",
    });
    expect(playground?.checkedAt).not.toBeNull();
    expect(evaluated).toMatchObject({
      endpointName: ASYNC,
      sentBy: { kind: "evaluation", runId: "run-listed", itemId: "listed-item" },
      state: "done",
    });
    expect(evaluated?.inputLocation).toMatch(new RegExp(`^s3://${LOCAL_ARTIFACT_BUCKET}/async/${ASYNC}/in/`));
    expect(evaluated?.outputLocation).toBe(
      `s3://${LOCAL_ARTIFACT_BUCKET}/async/${ASYNC}/out/${evaluated?.inferenceId}.out`,
    );
    expect(evaluated?.failureLocation).toBe(
      `s3://${LOCAL_ARTIFACT_BUCKET}/async/${ASYNC}/failed/${evaluated?.inferenceId}-error.out`,
    );
    expect(requests).toHaveLength(5);
    expect(new Date(playground!.submittedAt).getTime()).toBeGreaterThanOrEqual(
      new Date(evaluated!.submittedAt).getTime(),
    );
  });

  it("records a failed request as failed and refuses a limit out of bounds", async () => {
    const response = await submit.POST(
      send(`/api/endpoints/${ASYNC}/invoke-async`, { body: decision(["only-one"]) }),
      named(ASYNC),
    );
    const { inferenceId } = (await response.json()) as AsyncInvocation;
    const deadline = Date.now() + 60_000;
    let seen: AsyncRequestList["requests"][number] | undefined;
    do {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const listing = await asyncRequests.GET(
        new Request(`${base}/api/endpoints/${ASYNC}/async-requests`),
        named(ASYNC),
      );
      seen = ((await listing.json()) as AsyncRequestList).requests.find(
        (request) => request.inferenceId === inferenceId,
      );
    } while (seen?.state === "queued" && Date.now() < deadline);
    expect(seen?.state).toBe("failed");
    const tooMany = await asyncRequests.GET(
      new Request(`${base}/api/endpoints/${ASYNC}/async-requests?limit=100000`),
      named(ASYNC),
    );
    expect(tooMany.status).toBe(400);
  });
});

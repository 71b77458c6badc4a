import { ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { InvokeEndpointAsyncCommand, SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import { mockClient } from "aws-sdk-client-mock";
import { beforeEach, expect, it } from "vitest";
import { isEvaluationTraffic } from "../../contract/evaluate/evaluation-traffic.ts";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import type { Store } from "../store/store.ts";
import {
  type AsyncRequestSender,
  acceptedAsyncRequest,
  noteAsyncState,
  recentAsyncRequests,
  sendAsyncRequest,
  submittedForItem,
} from "./async-requests.ts";

const s3 = mockClient(S3Client);
const runtime = mockClient(SageMakerRuntimeClient);
const clients = { s3: s3 as unknown as S3Client, runtime: runtime as unknown as SageMakerRuntimeClient };
const ENDPOINT = "dc-async";
const paths = { outputPath: "s3://bucket/async/dc-async/out", failurePath: "s3://bucket/async/dc-async/failed" };
const item = { runId: "run-1", slot: 0, position: 3, itemId: "item-3" };

/** SageMaker takes every request, answering with locations of its own (not the console's guess). */
function sageMakerTakesRequests() {
  runtime.on(InvokeEndpointAsyncCommand).callsFake((input: { InferenceId: string }) => ({
    InferenceId: input.InferenceId,
    OutputLocation: `s3://bucket/answers/${input.InferenceId}.out`,
    FailureLocation: `s3://bucket/answers/${input.InferenceId}-error.out`,
  }));
}

const send = (store: Store, sender: AsyncRequestSender = { kind: "playground", user: "ops" }) =>
  sendAsyncRequest(clients, store, { bucket: "bucket", endpointName: ENDPOINT, paths, body: { q: 1 }, sender });

beforeEach(() => {
  s3.reset();
  runtime.reset();
  s3.on(PutObjectCommand).resolves({});
  s3.on(ListObjectsV2Command).resolves({ Contents: [] });
  sageMakerTakesRequests();
});

describeOnStores("asynchronous requests", (current) => {
  it("records a request with the locations SageMaker returned, found only under its own endpoint", async () => {
    const { store } = current();
    const queued = await send(store);
    const recorded = await acceptedAsyncRequest(store, ENDPOINT, queued.inferenceId);
    expect(recorded).toMatchObject({
      inferenceId: queued.inferenceId,
      endpointName: ENDPOINT,
      inputLocation: `s3://bucket/async/${ENDPOINT}/in/${queued.inferenceId}.json`,
      outputLocation: `s3://bucket/answers/${queued.inferenceId}.out`,
      failureLocation: `s3://bucket/answers/${queued.inferenceId}-error.out`,
      sentBy: { kind: "playground", user: "ops" },
      state: "queued",
      checkedAt: null,
    });
    expect(await acceptedAsyncRequest(store, "dc-other", queued.inferenceId)).toBeNull();
  });

  it("tags an evaluation item's request as evaluation traffic, afresh each time it is sent, and no other request", async () => {
    const { store } = current();
    const first = await send(store, { kind: "evaluation", ...item });
    await noteAsyncState(store, first.inferenceId, "failed");
    const again = await send(store, { kind: "evaluation", ...item });
    const playground = await send(store);
    const sent = runtime.commandCalls(InvokeEndpointAsyncCommand).map((call) => call.args[0].input.InferenceId);
    expect(sent).toEqual([first.inferenceId, again.inferenceId, playground.inferenceId]);
    expect(sent.map(isEvaluationTraffic)).toEqual([true, true, false]);
    expect(again.inferenceId).not.toBe(first.inferenceId);
  });

  it("forgets a request SageMaker refused", async () => {
    const { store } = current();
    runtime.on(InvokeEndpointAsyncCommand).rejects(Object.assign(new Error("no"), { name: "ValidationError" }));
    await expect(send(store)).rejects.toThrow();
    expect(await store.selectFrom("async_requests").selectAll().execute()).toEqual([]);
  });

  it("finds an evaluation item's request; one never heard accepted counts as accepted once an outcome is seen", async () => {
    const { store } = current();
    const queued = await send(store, { kind: "evaluation", ...item });
    // The request as it stood when the console stopped mid-call: written down, SageMaker's answer never heard.
    await store.updateTable("async_requests").set({ accepted_at: null }).execute();

    const unheard = await submittedForItem(store, item, ENDPOINT);
    expect(unheard).toMatchObject({
      inferenceId: queued.inferenceId,
      accepted: false,
      sentBy: { kind: "evaluation", runId: item.runId, itemId: item.itemId },
    });
    expect(await submittedForItem(store, { ...item, position: 4 }, ENDPOINT)).toBeNull();
    expect(await submittedForItem(store, item, "dc-other")).toBeNull();

    await noteAsyncState(store, queued.inferenceId, "pending");
    expect(await submittedForItem(store, item, ENDPOINT)).toMatchObject({ state: "queued", accepted: false });
    await noteAsyncState(store, queued.inferenceId, "completed");
    const done = await submittedForItem(store, item, ENDPOINT);
    expect(done).toMatchObject({ state: "done", accepted: true });
    expect(done?.checkedAt).not.toBeNull();
  });

  it("keeps the time SageMaker first took a request when a later look sees its outcome", async () => {
    const { store } = current();
    const queued = await send(store);
    await store.updateTable("async_requests").set({ accepted_at: "2026-12-01T00:00:00.000Z" }).execute();
    await noteAsyncState(store, queued.inferenceId, "failed");
    const row = await store.selectFrom("async_requests").select(["state", "accepted_at"]).executeTakeFirst();
    expect(row).toEqual({ state: "failed", accepted_at: "2026-12-01T00:00:00.000Z" });
  });

  it("lists the endpoint's accepted requests newest first, queued ones refreshed from S3", async () => {
    const { store } = current();
    const first = await send(store);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await send(store, { kind: "evaluation", ...item });
    s3.on(ListObjectsV2Command, { Prefix: `answers/${first.inferenceId}.out` }).resolves({
      Contents: [{ Key: `answers/${first.inferenceId}.out` }],
    });
    const listed = await recentAsyncRequests(clients.s3, store, ENDPOINT, 10);
    expect(listed.map((request) => [request.inferenceId, request.state])).toEqual([
      [second.inferenceId, "queued"],
      [first.inferenceId, "done"],
    ]);
    expect(await recentAsyncRequests(clients.s3, store, "dc-other", 10)).toEqual([]);
  });

  it("keeps an endpoint's newest 1000 requests that have finished, and every queued one", async () => {
    const { store } = current();
    const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
    const row = (id: string, second: number, state: "queued" | "done") => ({
      inference_id: id,
      endpoint_name: ENDPOINT,
      input_location: "s3://bucket/in",
      output_location: "s3://bucket/out",
      failure_location: null,
      sender_kind: "playground" as const,
      user_name: null,
      submitted_at: at(second),
      state,
      accepted_at: at(second),
    });
    const finished = Array.from({ length: 1001 }, (_, i) =>
      row(`done-${String(i + 1).padStart(4, "0")}`, i + 1, "done"),
    );
    await store
      .insertInto("async_requests")
      .values([row("queued-oldest", 0, "queued"), ...finished])
      .execute();
    await send(store);
    const left = await store.selectFrom("async_requests").select(["inference_id", "state"]).execute();
    expect(left.filter((request) => request.state === "queued")).toHaveLength(2);
    expect(left.filter((request) => request.state === "done")).toHaveLength(999);
    expect(left.map((request) => request.inference_id)).not.toContain("done-0001");
    expect(left.map((request) => request.inference_id)).not.toContain("done-0002");
    expect(left.map((request) => request.inference_id)).toContain("queued-oldest");
  });
});

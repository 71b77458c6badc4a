import type { S3Client } from "@aws-sdk/client-s3";
import type { SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import type { Selectable } from "kysely";
import { asyncEvaluationInferenceId } from "../../contract/evaluate/evaluation-traffic.ts";
import type {
  AsyncInvocation,
  AsyncOutcome,
  AsyncRequestRecord,
  AsyncRequestState,
} from "../../contract/invoke/invoke-async.ts";
import type { ConsoleTables } from "../store/schema.ts";
import type { Store } from "../store/store.ts";
import { resultWritten } from "./async-outcome.ts";
import { asyncInputKey, expectedResultLocations, invokeEndpointAsync } from "./invoke-async.ts";

/** An evaluation item as the runner keys its results: the run, the target's slot and the item's position. */
export interface EvaluationItemKey {
  runId: string;
  slot: number;
  position: number;
  itemId: string;
}

export type AsyncRequestSender =
  | { kind: "playground"; user: string | null }
  | ({ kind: "evaluation" } & EvaluationItemKey);

/** Finished requests kept per endpoint; queued ones are never dropped (a resumed evaluation collects them). */
const keepFinishedPerEndpoint = 1000;
/** Queued requests looked up in S3 per listing, so one listing costs a bounded number of S3 calls. */
const refreshPerListing = 20;

/**
 * Every InvokeEndpointAsync the console sends goes through here. The request is written down first, under the
 * InferenceId the console gives it, then written to S3 and queued (invokeEndpointAsync), and marked accepted when
 * SageMaker answers: so the endpoint page can list it, and a resumed evaluation finds every request it may have
 * sent, even one whose answer it did not live to hear.
 */
export async function sendAsyncRequest(
  clients: { s3: S3Client; runtime: SageMakerRuntimeClient },
  store: Store,
  request: {
    bucket: string;
    endpointName: string;
    /** The endpoint's AsyncInferenceConfig output paths. */
    paths: { outputPath: string; failurePath: string | null };
    body: unknown;
    sender: AsyncRequestSender;
  },
): Promise<AsyncInvocation> {
  const { sender, endpointName } = request;
  const inferenceId = sender.kind === "evaluation" ? asyncEvaluationInferenceId() : crypto.randomUUID();
  // Replaced by the locations SageMaker returns once it takes the request.
  const expected = expectedResultLocations(request.paths, inferenceId);
  const evaluation = sender.kind === "evaluation" ? sender : null;
  await store.transaction().execute(async (trx) => {
    await trx
      .insertInto("async_requests")
      .values({
        inference_id: inferenceId,
        endpoint_name: endpointName,
        input_location: `s3://${request.bucket}/${asyncInputKey(endpointName, inferenceId)}`,
        output_location: expected.outputLocation,
        failure_location: expected.failureLocation,
        sender_kind: sender.kind,
        user_name: sender.kind === "playground" ? sender.user : null,
        run_id: evaluation?.runId ?? null,
        slot: evaluation?.slot ?? null,
        position: evaluation?.position ?? null,
        item_id: evaluation?.itemId ?? null,
        submitted_at: new Date().toISOString(),
        state: "queued",
      })
      .execute();
    await dropOldFinished(trx, endpointName);
  });
  let queued: AsyncInvocation;
  try {
    queued = await invokeEndpointAsync(clients, request.bucket, endpointName, request.body, inferenceId);
  } catch (error) {
    await forgetAsyncRequest(store, inferenceId);
    throw error;
  }
  await store
    .updateTable("async_requests")
    .set({
      input_location: queued.inputLocation,
      output_location: queued.outputLocation,
      failure_location: queued.failureLocation,
      accepted_at: new Date().toISOString(),
    })
    .where("inference_id", "=", inferenceId)
    .execute();
  return queued;
}

/** Finished requests beyond the endpoint's newest `keepFinishedPerEndpoint`; queued ones stay whatever their age. */
async function dropOldFinished(store: Store, endpointName: string): Promise<void> {
  await store
    .deleteFrom("async_requests")
    .where("endpoint_name", "=", endpointName)
    .where("state", "<>", "queued")
    .where("inference_id", "not in", (eb) =>
      eb
        .selectFrom("async_requests")
        .select("inference_id")
        .where("endpoint_name", "=", endpointName)
        .orderBy("submitted_at", "desc")
        .limit(keepFinishedPerEndpoint),
    )
    .execute();
}

/** Drops a request SageMaker never took (refused, or never sent before the console stopped). */
export async function forgetAsyncRequest(store: Store, inferenceId: string): Promise<void> {
  await store.deleteFrom("async_requests").where("inference_id", "=", inferenceId).execute();
}

const stateOfOutcome: Record<AsyncOutcome["status"], AsyncRequestState> = {
  pending: "queued",
  completed: "done",
  failed: "failed",
};

/** What the console just saw of a request in S3 (a request it did not send is not recorded); an outcome there
 * also proves SageMaker took the request. */
export async function noteAsyncState(store: Store, inferenceId: string, seen: AsyncOutcome["status"]): Promise<void> {
  const at = new Date().toISOString();
  const state = stateOfOutcome[seen];
  await store
    .updateTable("async_requests")
    .set((eb) => ({
      state,
      checked_at: at,
      ...(state === "queued" ? {} : { accepted_at: eb.fn.coalesce("accepted_at", eb.val(at)) }),
    }))
    .where("inference_id", "=", inferenceId)
    .execute();
}

/**
 * The newest request written down for an evaluation item, if any: a resumed run collects it rather than sending it
 * again. `accepted` false: the console stopped before SageMaker's answer, so whether it was queued is unknown.
 * Two submitted in the same millisecond are told apart by inference id: the table records no insertion order that
 * both dialects have (SQLite's rowid, which this once used, PostgreSQL lacks).
 */
export async function submittedForItem(
  store: Store,
  item: Omit<EvaluationItemKey, "itemId">,
  endpointName: string,
): Promise<(AsyncRequestRecord & { accepted: boolean }) | null> {
  const row = await store
    .selectFrom("async_requests")
    .selectAll()
    .where("run_id", "=", item.runId)
    .where("slot", "=", item.slot)
    .where("position", "=", item.position)
    .where("endpoint_name", "=", endpointName)
    .orderBy("submitted_at", "desc")
    .orderBy("inference_id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? { ...recordOf(row), accepted: row.accepted_at !== null } : null;
}

/** A request this console sent to the endpoint and SageMaker took, with the locations SageMaker returned. */
export async function acceptedAsyncRequest(
  store: Store,
  endpointName: string,
  inferenceId: string,
): Promise<AsyncRequestRecord | null> {
  const row = await store
    .selectFrom("async_requests")
    .selectAll()
    .where("inference_id", "=", inferenceId)
    .where("endpoint_name", "=", endpointName)
    .where("accepted_at", "is not", null)
    .executeTakeFirst();
  return row ? recordOf(row) : null;
}

function recordOf(row: Selectable<ConsoleTables["async_requests"]>): AsyncRequestRecord {
  return {
    inferenceId: row.inference_id,
    endpointName: row.endpoint_name,
    inputLocation: row.input_location,
    outputLocation: row.output_location,
    failureLocation: row.failure_location,
    sentBy:
      row.sender_kind === "playground"
        ? { kind: "playground", user: row.user_name }
        : { kind: "evaluation", runId: row.run_id as string, itemId: row.item_id ?? "" },
    submittedAt: row.submitted_at,
    state: row.state,
    checkedAt: row.checked_at,
  };
}

/** The output location, then the failure location: which one SageMaker has written, if any. */
async function outcomeInS3(s3: S3Client, request: AsyncRequestRecord): Promise<AsyncOutcome["status"]> {
  if (await resultWritten(s3, request.outputLocation)) return "completed";
  if (request.failureLocation && (await resultWritten(s3, request.failureLocation))) return "failed";
  return "pending";
}

/**
 * The endpoint's recent asynchronous requests (those SageMaker took), newest first; the newest `refreshPerListing`
 * still queued are looked up in S3 first, so the states shown are what S3 holds now. Same-millisecond submissions
 * come by inference id, descending.
 */
export async function recentAsyncRequests(
  s3: S3Client,
  store: Store,
  endpointName: string,
  limit: number,
): Promise<AsyncRequestRecord[]> {
  const list = async () =>
    (
      await store
        .selectFrom("async_requests")
        .selectAll()
        .where("endpoint_name", "=", endpointName)
        .where("accepted_at", "is not", null)
        .orderBy("submitted_at", "desc")
        .orderBy("inference_id", "desc")
        .limit(limit)
        .execute()
    ).map(recordOf);
  const queued = (await list()).filter((request) => request.state === "queued").slice(0, refreshPerListing);
  await Promise.all(
    queued.map(async (request) => noteAsyncState(store, request.inferenceId, await outcomeInS3(s3, request))),
  );
  return list();
}

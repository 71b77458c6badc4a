import type { S3Client } from "@aws-sdk/client-s3";
import type { SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import type {
  AsyncInvocation,
  AsyncOutcome,
  AsyncRequestRecord,
  AsyncRequestState,
} from "../../contract/invoke/invoke-async.ts";
import type { Db } from "../store/database.ts";
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
  db: Db,
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
  const inferenceId = crypto.randomUUID();
  // Replaced by the locations SageMaker returns once it takes the request.
  const expected = expectedResultLocations(request.paths, inferenceId);
  const evaluation = sender.kind === "evaluation" ? sender : null;
  db.transaction(() => {
    db.prepare(
      `INSERT INTO async_requests (inference_id, endpoint_name, input_location, output_location, failure_location,
         sender_kind, user_name, run_id, slot, position, item_id, submitted_at, state)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued')`,
    ).run(
      inferenceId,
      endpointName,
      `s3://${request.bucket}/${asyncInputKey(endpointName, inferenceId)}`,
      expected.outputLocation,
      expected.failureLocation,
      sender.kind,
      sender.kind === "playground" ? sender.user : null,
      evaluation?.runId ?? null,
      evaluation?.slot ?? null,
      evaluation?.position ?? null,
      evaluation?.itemId ?? null,
      new Date().toISOString(),
    );
    db.prepare(
      `DELETE FROM async_requests WHERE endpoint_name = ? AND state <> 'queued' AND inference_id NOT IN
         (SELECT inference_id FROM async_requests WHERE endpoint_name = ? ORDER BY submitted_at DESC LIMIT ?)`,
    ).run(endpointName, endpointName, keepFinishedPerEndpoint);
  })();
  let queued: AsyncInvocation;
  try {
    queued = await invokeEndpointAsync(clients, request.bucket, endpointName, request.body, inferenceId);
  } catch (error) {
    forgetAsyncRequest(db, inferenceId);
    throw error;
  }
  db.prepare(
    `UPDATE async_requests SET input_location = ?, output_location = ?, failure_location = ?, accepted_at = ?
     WHERE inference_id = ?`,
  ).run(queued.inputLocation, queued.outputLocation, queued.failureLocation, new Date().toISOString(), inferenceId);
  return queued;
}

/** Drops a request SageMaker never took (refused, or never sent before the console stopped). */
export function forgetAsyncRequest(db: Db, inferenceId: string): void {
  db.prepare("DELETE FROM async_requests WHERE inference_id = ?").run(inferenceId);
}

const stateOfOutcome: Record<AsyncOutcome["status"], AsyncRequestState> = {
  pending: "queued",
  completed: "done",
  failed: "failed",
};

/** What the console just saw of a request in S3 (a request it did not send is not recorded); an outcome there
 * also proves SageMaker took the request. */
export function noteAsyncState(db: Db, inferenceId: string, seen: AsyncOutcome["status"]): void {
  const at = new Date().toISOString();
  db.prepare(
    `UPDATE async_requests SET state = ?, checked_at = ?,
       accepted_at = CASE WHEN ? = 'queued' THEN accepted_at ELSE coalesce(accepted_at, ?) END
     WHERE inference_id = ?`,
  ).run(stateOfOutcome[seen], at, stateOfOutcome[seen], at, inferenceId);
}

/**
 * The newest request written down for an evaluation item, if any: a resumed run collects it rather than sending it
 * again. `accepted` false: the console stopped before SageMaker's answer, so whether it was queued is unknown.
 */
export function submittedForItem(
  db: Db,
  item: Omit<EvaluationItemKey, "itemId">,
  endpointName: string,
): (AsyncRequestRecord & { accepted: boolean }) | null {
  const row = db
    .prepare(
      `SELECT * FROM async_requests WHERE run_id = ? AND slot = ? AND position = ? AND endpoint_name = ?
       ORDER BY submitted_at DESC, rowid DESC LIMIT 1`,
    )
    .get(item.runId, item.slot, item.position, endpointName) as Row | undefined;
  return row ? { ...recordOf(row), accepted: row.accepted_at !== null } : null;
}

/** A request this console sent to the endpoint and SageMaker took, with the locations SageMaker returned. */
export function acceptedAsyncRequest(db: Db, endpointName: string, inferenceId: string): AsyncRequestRecord | null {
  const row = db
    .prepare("SELECT * FROM async_requests WHERE inference_id = ? AND endpoint_name = ? AND accepted_at IS NOT NULL")
    .get(inferenceId, endpointName) as Row | undefined;
  return row ? recordOf(row) : null;
}

interface Row {
  inference_id: string;
  endpoint_name: string;
  input_location: string;
  output_location: string;
  failure_location: string | null;
  sender_kind: "playground" | "evaluation";
  user_name: string | null;
  run_id: string | null;
  item_id: string | null;
  submitted_at: string;
  state: AsyncRequestState;
  checked_at: string | null;
  accepted_at: string | null;
}

function recordOf(row: Row): AsyncRequestRecord {
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
 * still queued are looked up in S3 first, so the states shown are what S3 holds now.
 */
export async function recentAsyncRequests(
  s3: S3Client,
  db: Db,
  endpointName: string,
  limit: number,
): Promise<AsyncRequestRecord[]> {
  const list = () =>
    (
      db
        .prepare(
          `SELECT * FROM async_requests WHERE endpoint_name = ? AND accepted_at IS NOT NULL
           ORDER BY submitted_at DESC, rowid DESC LIMIT ?`,
        )
        .all(endpointName, limit) as Row[]
    ).map(recordOf);
  const queued = list()
    .filter((request) => request.state === "queued")
    .slice(0, refreshPerListing);
  await Promise.all(
    queued.map(async (request) => noteAsyncState(db, request.inferenceId, await outcomeInS3(s3, request))),
  );
  return list();
}

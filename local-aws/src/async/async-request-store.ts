import type { Db } from "../database.ts";

export type AsyncRequestStatus = "queued" | "running" | "completed" | "failed" | "expired";

/** One InvokeEndpointAsync request as the local queue keeps it (times in ms since the epoch). */
export interface AsyncRequest {
  id: number;
  inferenceId: string;
  endpoint: string;
  status: AsyncRequestStatus;
  inputLocation: string | null;
  inlineBody: Buffer | null;
  contentType: string | null;
  accept: string | null;
  customAttributes: string | null;
  outputLocation: string | null;
  failureLocation: string | null;
  ttlSeconds: number;
  timeoutSeconds: number;
  receivedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  variant: string | null;
  instanceId: string | null;
  failureReason: string | null;
}

interface Row {
  id: number;
  inference_id: string;
  endpoint: string;
  status: AsyncRequestStatus;
  input_location: string | null;
  inline_body: Buffer | null;
  content_type: string | null;
  accept: string | null;
  custom_attributes: string | null;
  output_location: string | null;
  failure_location: string | null;
  ttl_seconds: number;
  timeout_seconds: number;
  received_at: number;
  started_at: number | null;
  finished_at: number | null;
  variant: string | null;
  instance_id: string | null;
  failure_reason: string | null;
}

function toRequest(row: Row): AsyncRequest {
  return {
    id: row.id,
    inferenceId: row.inference_id,
    endpoint: row.endpoint,
    status: row.status,
    inputLocation: row.input_location,
    inlineBody: row.inline_body,
    contentType: row.content_type,
    accept: row.accept,
    customAttributes: row.custom_attributes,
    outputLocation: row.output_location,
    failureLocation: row.failure_location,
    ttlSeconds: row.ttl_seconds,
    timeoutSeconds: row.timeout_seconds,
    receivedAt: row.received_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    variant: row.variant,
    instanceId: row.instance_id,
    failureReason: row.failure_reason,
  };
}

export type NewAsyncRequest = Omit<
  AsyncRequest,
  "id" | "status" | "startedAt" | "finishedAt" | "variant" | "instanceId" | "failureReason"
>;

/**
 * The local Asynchronous Inference queue in SQLite: a request is written before InvokeEndpointAsync answers, so a
 * restart loses none, and it moves queued -> running -> completed | failed | expired exactly once (each move is a
 * conditional update, so no request is claimed twice).
 */
export class AsyncRequestStore {
  constructor(private readonly db: Db) {}

  insert(request: NewAsyncRequest): AsyncRequest {
    const info = this.db
      .prepare(
        `INSERT INTO async_requests (inference_id, endpoint, status, input_location, inline_body, content_type, accept,
           custom_attributes, output_location, failure_location, ttl_seconds, timeout_seconds, received_at)
         VALUES (?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        request.inferenceId,
        request.endpoint,
        request.inputLocation,
        request.inlineBody,
        request.contentType,
        request.accept,
        request.customAttributes,
        request.outputLocation,
        request.failureLocation,
        request.ttlSeconds,
        request.timeoutSeconds,
        request.receivedAt,
      );
    return this.byId(Number(info.lastInsertRowid)) as AsyncRequest;
  }

  byId(id: number): AsyncRequest | undefined {
    const row = this.db.prepare("SELECT * FROM async_requests WHERE id = ?").get(id) as Row | undefined;
    return row ? toRequest(row) : undefined;
  }

  /** The endpoint's requests in one state, oldest first. */
  withStatus(endpoint: string, status: AsyncRequestStatus, limit = 1000): AsyncRequest[] {
    const rows = this.db
      .prepare("SELECT * FROM async_requests WHERE lower(endpoint) = lower(?) AND status = ? ORDER BY id LIMIT ?")
      .all(endpoint, status, limit) as Row[];
    return rows.map(toRequest);
  }

  /** Endpoints with requests queued or running. */
  endpointsWithBacklog(): string[] {
    const rows = this.db
      .prepare("SELECT DISTINCT endpoint FROM async_requests WHERE status IN ('queued', 'running')")
      .all() as { endpoint: string }[];
    return rows.map((row) => row.endpoint);
  }

  /** Requests in the queue or being processed, and when the oldest of them arrived. */
  backlog(endpoint: string): { size: number; oldestReceivedAt: number | null } {
    const row = this.db
      .prepare(
        `SELECT COUNT(*) AS size, MIN(received_at) AS oldest FROM async_requests
         WHERE lower(endpoint) = lower(?) AND status IN ('queued', 'running')`,
      )
      .get(endpoint) as { size: number; oldest: number | null };
    return { size: row.size, oldestReceivedAt: row.oldest };
  }

  /** queued -> running on one instance; false when another dispatcher took it first. */
  claim(id: number, variant: string, instanceId: string, at = Date.now()): boolean {
    const info = this.db
      .prepare(
        "UPDATE async_requests SET status = 'running', started_at = ?, variant = ?, instance_id = ? WHERE id = ? AND status = 'queued'",
      )
      .run(at, variant, instanceId, id);
    return info.changes === 1;
  }

  /** Ends a queued or running request; a request that already ended keeps its outcome. */
  finish(
    id: number,
    status: Extract<AsyncRequestStatus, "completed" | "failed" | "expired">,
    failureReason: string | null,
    at = Date.now(),
  ): boolean {
    const info = this.db
      .prepare(
        "UPDATE async_requests SET status = ?, failure_reason = ?, finished_at = ? WHERE id = ? AND status IN ('queued', 'running')",
      )
      .run(status, failureReason, at, id);
    return info.changes === 1;
  }
}

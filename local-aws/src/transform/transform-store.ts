import type { CreateTransformJobCommandInput } from "@aws-sdk/client-sagemaker";
import type { Db } from "../database.ts";
import { AwsError } from "../wire/aws-error.ts";
import type { OnTheWire } from "../wire/typed-operations.ts";

export type TransformJobStatus = "InProgress" | "Completed" | "Failed" | "Stopping" | "Stopped";

/** The job as CreateTransformJob defined it (the members DescribeTransformJob echoes). */
/** CreateTransformJob's request as the job keeps it (its tags apart), with the ARN it was given. */
export type TransformJobDoc = Omit<OnTheWire<CreateTransformJobCommandInput>, "Tags"> & { TransformJobArn: string };

export interface TransformJobRecord {
  doc: TransformJobDoc;
  status: TransformJobStatus;
  failureReason: string | null;
  createdAt: number;
  startedAt: number | null;
  endedAt: number | null;
  updatedAt: number;
}

/** How far a job got through one input object: records answered, bytes of output kept, whether its .out is written. */
export interface InputProgress {
  recordsDone: number;
  bytesWritten: number;
  completed: boolean;
}

interface JobRow {
  doc: string;
  status: TransformJobStatus;
  failure_reason: string | null;
  created_at: number;
  started_at: number | null;
  ended_at: number | null;
  updated_at: number;
}

const now = () => Date.now() / 1000;

function toRecord(row: JobRow): TransformJobRecord {
  return {
    doc: JSON.parse(row.doc) as TransformJobDoc,
    status: row.status,
    failureReason: row.failure_reason,
    createdAt: row.created_at,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    updatedAt: row.updated_at,
  };
}

/** Transform jobs and their per-input progress (so a restart neither loses nor repeats finished records). */
export class TransformStore {
  constructor(private readonly db: Db) {}

  insert(doc: TransformJobDoc) {
    const at = now();
    this.db
      .prepare(
        "INSERT INTO sm_transform_jobs (name, doc, status, created_at, updated_at) VALUES (?, ?, 'InProgress', ?, ?)",
      )
      .run(doc.TransformJobName, JSON.stringify(doc), at, at);
  }

  job(name: string): TransformJobRecord | undefined {
    const row = this.db.prepare("SELECT * FROM sm_transform_jobs WHERE lower(name) = lower(?)").get(name) as
      | JobRow
      | undefined;
    return row ? toRecord(row) : undefined;
  }

  /** DescribeTransformJob's and StopTransformJob's refusal of an unknown job. */
  requireJob(name: string): TransformJobRecord {
    const job = this.job(name);
    if (!job) throw new AwsError("ResourceNotFound", `Could not find requested job with name ${name}`);
    return job;
  }

  jobs(): TransformJobRecord[] {
    return (this.db.prepare("SELECT * FROM sm_transform_jobs").all() as JobRow[]).map(toRecord);
  }

  update(name: string, change: { status: TransformJobStatus; failureReason?: string }) {
    const at = now();
    const terminal = change.status === "Completed" || change.status === "Failed" || change.status === "Stopped";
    this.db
      .prepare(
        `UPDATE sm_transform_jobs SET status = ?, failure_reason = coalesce(?, failure_reason),
           ended_at = CASE WHEN ? THEN ? ELSE ended_at END, updated_at = ? WHERE lower(name) = lower(?)`,
      )
      .run(change.status, change.failureReason ?? null, terminal ? 1 : 0, at, at, name);
  }

  markStarted(name: string) {
    this.db
      .prepare("UPDATE sm_transform_jobs SET started_at = coalesce(started_at, ?) WHERE lower(name) = lower(?)")
      .run(now(), name);
  }

  progress(job: string, inputKey: string): InputProgress {
    const row = this.db
      .prepare("SELECT * FROM sm_transform_progress WHERE job = ? AND input_key = ?")
      .get(job, inputKey) as { records_done: number; bytes_written: number; completed: number } | undefined;
    return row
      ? { recordsDone: row.records_done, bytesWritten: row.bytes_written, completed: row.completed === 1 }
      : { recordsDone: 0, bytesWritten: 0, completed: false };
  }

  /** Records answered and kept so far, over every input object of the job. */
  recordsDone(job: string): number {
    const row = this.db
      .prepare("SELECT coalesce(sum(records_done), 0) AS done FROM sm_transform_progress WHERE job = ?")
      .get(job) as { done: number };
    return row.done;
  }

  saveProgress(job: string, inputKey: string, progress: InputProgress) {
    this.db
      .prepare(
        `INSERT INTO sm_transform_progress (job, input_key, records_done, bytes_written, completed) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (job, input_key) DO UPDATE SET records_done = excluded.records_done,
           bytes_written = excluded.bytes_written, completed = excluded.completed`,
      )
      .run(job, inputKey, progress.recordsDone, progress.bytesWritten, progress.completed ? 1 : 0);
  }
}

import type { Db } from "../../store/database.ts";

/** The transform job an evaluation run is scored by, and where its input and output lie. */
export interface BatchJobRow {
  run_id: string;
  job_name: string;
  model_name: string;
  instance_type: string;
  instance_count: number;
  max_concurrent_transforms: number | null;
  input_s3_uri: string;
  output_s3_uri: string;
}

export function saveBatchJob(db: Db, row: BatchJobRow): void {
  db.prepare(
    `INSERT INTO evaluation_batch_jobs (run_id, job_name, model_name, instance_type, instance_count,
       max_concurrent_transforms, input_s3_uri, output_s3_uri)
     VALUES (@run_id, @job_name, @model_name, @instance_type, @instance_count, @max_concurrent_transforms,
       @input_s3_uri, @output_s3_uri)`,
  ).run(row);
}

export function batchJobOf(db: Db, runId: string): BatchJobRow | null {
  return (
    (db.prepare("SELECT * FROM evaluation_batch_jobs WHERE run_id = ?").get(runId) as BatchJobRow | undefined) ?? null
  );
}

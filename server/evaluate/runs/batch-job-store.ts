import type { Selectable } from "kysely";
import type { ConsoleTables } from "../../store/schema.ts";
import type { Store } from "../../store/store.ts";

/** The transform job an evaluation run is scored by, and where its input and output lie. */
export type BatchJobRow = Selectable<ConsoleTables["evaluation_batch_jobs"]>;

export async function saveBatchJob(store: Store, row: BatchJobRow): Promise<void> {
  await store.insertInto("evaluation_batch_jobs").values(row).execute();
}

export async function batchJobOf(store: Store, runId: string): Promise<BatchJobRow | null> {
  return (
    (await store.selectFrom("evaluation_batch_jobs").selectAll().where("run_id", "=", runId).executeTakeFirst()) ?? null
  );
}

import { randomUUID } from "node:crypto";
import type { Decision } from "@decision-console/adapter/contract";
import type { Selectable } from "kysely";
import type { DatasetDetail, DatasetSource, DatasetSummary } from "../../../contract/evaluate/datasets.ts";
import { chunks } from "../../store/chunks.ts";
import type { ConsoleTables } from "../../store/schema.ts";
import type { Store, StoreTransaction } from "../../store/store.ts";
import type { LabelledDecision } from "./labelled-decision.ts";

export interface StoredItem extends LabelledDecision {
  position: number;
}

type DatasetRow = Selectable<ConsoleTables["evaluation_datasets"]>;

/** Items per INSERT: well under both dialects' limits on bound parameters (7 per item). */
const ITEMS_PER_INSERT = 500;

const toSummary = (row: DatasetRow): DatasetSummary => ({
  id: row.id,
  name: row.name,
  source: row.source,
  format: row.format,
  itemCount: row.item_count,
  createdAt: row.created_at,
});

/** Stores a validated dataset and its items in one transaction. */
export async function createDataset(
  store: Store,
  input: { name: string; source: DatasetSource; format: string; items: readonly LabelledDecision[] },
): Promise<DatasetSummary> {
  return store.transaction().execute((trx) => insertDataset(trx, input));
}

/** Stores a dataset and its items on `trx`, a transaction the caller holds. */
export async function insertDataset(
  trx: StoreTransaction,
  input: { name: string; source: DatasetSource; format: string; items: readonly LabelledDecision[] },
): Promise<DatasetSummary> {
  const row: DatasetRow = {
    id: randomUUID(),
    name: input.name,
    source: input.source,
    format: input.format,
    item_count: input.items.length,
    created_at: new Date().toISOString(),
  };
  const items = input.items.map((item, position) => ({
    dataset_id: row.id,
    position,
    item_id: item.decision.id,
    decision: JSON.stringify(item.decision),
    answer: item.answer,
    category: item.category,
    tier: item.tier,
  }));
  await trx.insertInto("evaluation_datasets").values(row).execute();
  for (const some of chunks(items, ITEMS_PER_INSERT)) {
    await trx.insertInto("evaluation_dataset_items").values(some).execute();
  }
  return toSummary(row);
}

/** Newest first; datasets created in the same instant by id. */
export async function listDatasets(store: Store): Promise<DatasetSummary[]> {
  const rows = await store
    .selectFrom("evaluation_datasets")
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map(toSummary);
}

export async function findDataset(store: Store, id: string): Promise<DatasetSummary | null> {
  const row = await store.selectFrom("evaluation_datasets").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toSummary(row) : null;
}

/** The oldest dataset of that name and source. */
export async function findDatasetByName(
  store: Store,
  name: string,
  source: DatasetSource,
): Promise<DatasetSummary | null> {
  const row = await store
    .selectFrom("evaluation_datasets")
    .selectAll()
    .where("name", "=", name)
    .where("source", "=", source)
    .orderBy("created_at")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  return row ? toSummary(row) : null;
}

export async function datasetItems(store: Store, datasetId: string): Promise<StoredItem[]> {
  const rows = await store
    .selectFrom("evaluation_dataset_items")
    .select(["position", "decision", "answer", "category", "tier"])
    .where("dataset_id", "=", datasetId)
    .orderBy("position")
    .execute();
  return rows.map((row) => ({
    position: row.position,
    decision: JSON.parse(row.decision) as Decision,
    answer: row.answer,
    category: row.category,
    tier: row.tier,
  }));
}

function countBy(values: readonly (string | null)[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) if (value) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

const PREVIEW_ITEMS = 20;

/** The dataset's own detail; what evaluations found (`tokenBudgetRefusals`) is added by runs/. */
export async function datasetDetail(
  store: Store,
  id: string,
): Promise<Omit<DatasetDetail, "tokenBudgetRefusals"> | null> {
  const summary = await findDataset(store, id);
  if (!summary) return null;
  const items = await datasetItems(store, id);
  return {
    ...summary,
    categories: countBy(items.map((item) => item.category)),
    tiers: countBy(items.map((item) => item.tier)),
    answers: countBy(items.map((item) => item.answer)),
    preview: items.slice(0, PREVIEW_ITEMS).map((item) => ({
      id: item.decision.id,
      question: item.decision.question,
      options: item.decision.options.map((option) => option.id),
      answer: item.answer,
    })),
  };
}

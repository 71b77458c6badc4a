import { randomUUID } from "node:crypto";
import type { Decision } from "@decision-console/adapter/contract";
import type { DatasetDetail, DatasetSource, DatasetSummary } from "../../../contract/evaluate/datasets.ts";
import type { Db } from "../../store/database.ts";
import type { LabelledDecision } from "./labelled-decision.ts";

export interface StoredItem extends LabelledDecision {
  position: number;
}

interface DatasetRow {
  id: string;
  name: string;
  source: DatasetSource;
  format: string;
  item_count: number;
  created_at: string;
}

const toSummary = (row: DatasetRow): DatasetSummary => ({
  id: row.id,
  name: row.name,
  source: row.source,
  format: row.format,
  itemCount: row.item_count,
  createdAt: row.created_at,
});

/** Stores a validated dataset and its items in one transaction. */
export function createDataset(
  db: Db,
  input: { name: string; source: DatasetSource; format: string; items: readonly LabelledDecision[] },
): DatasetSummary {
  const row: DatasetRow = {
    id: randomUUID(),
    name: input.name,
    source: input.source,
    format: input.format,
    item_count: input.items.length,
    created_at: new Date().toISOString(),
  };
  const insertItem = db.prepare(
    `INSERT INTO evaluation_dataset_items (dataset_id, position, item_id, decision, answer, category, tier)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    db.prepare(
      `INSERT INTO evaluation_datasets (id, name, source, format, item_count, created_at)
       VALUES (@id, @name, @source, @format, @item_count, @created_at)`,
    ).run(row);
    input.items.forEach((item, position) => {
      insertItem.run(
        row.id,
        position,
        item.decision.id,
        JSON.stringify(item.decision),
        item.answer,
        item.category,
        item.tier,
      );
    });
  })();
  return toSummary(row);
}

export function listDatasets(db: Db): DatasetSummary[] {
  const rows = db.prepare("SELECT * FROM evaluation_datasets ORDER BY created_at DESC, id").all() as DatasetRow[];
  return rows.map(toSummary);
}

export function findDataset(db: Db, id: string): DatasetSummary | null {
  const row = db.prepare("SELECT * FROM evaluation_datasets WHERE id = ?").get(id) as DatasetRow | undefined;
  return row ? toSummary(row) : null;
}

export function findDatasetByName(db: Db, name: string, source: DatasetSource): DatasetSummary | null {
  const row = db
    .prepare("SELECT * FROM evaluation_datasets WHERE name = ? AND source = ? ORDER BY created_at LIMIT 1")
    .get(name, source) as DatasetRow | undefined;
  return row ? toSummary(row) : null;
}

export function datasetItems(db: Db, datasetId: string): StoredItem[] {
  const rows = db
    .prepare(
      `SELECT position, decision, answer, category, tier FROM evaluation_dataset_items
       WHERE dataset_id = ? ORDER BY position`,
    )
    .all(datasetId) as {
    position: number;
    decision: string;
    answer: string;
    category: string | null;
    tier: string | null;
  }[];
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
export function datasetDetail(db: Db, id: string): Omit<DatasetDetail, "tokenBudgetRefusals"> | null {
  const summary = findDataset(db, id);
  if (!summary) return null;
  const items = datasetItems(db, id);
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

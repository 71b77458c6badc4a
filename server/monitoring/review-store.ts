import type { Decision } from "@decision-console/adapter/contract";
import type { CapturedDecisionKey, ReviewLabel } from "../../contract/endpoints/review.ts";
import type { Db } from "../store/database.ts";
import type { StoredDecision } from "./monitoring-store.ts";

/** A single captured decision with its key (captured_decisions), as the review queue reads it. */
export interface KeyedDecision extends StoredDecision, CapturedDecisionKey {
  variant: string;
}

type DecisionRow = {
  object_key: string;
  line: number;
  item: number;
  variant: string;
  at_ms: number;
  kind: string;
  input_key: string;
  chosen: string;
  top_probability: number;
  probabilities: string;
  latency_ms: number | null;
};

const keyed = (row: DecisionRow): KeyedDecision => ({
  objectKey: row.object_key,
  line: row.line,
  item: row.item,
  variant: row.variant,
  atMs: row.at_ms,
  kind: row.kind,
  inputKey: row.input_key,
  chosen: row.chosen,
  topProbability: row.top_probability,
  probabilities: JSON.parse(row.probabilities),
  latencyMs: row.latency_ms,
});

const COLUMNS = `d.object_key, d.line, d.item, d.variant, d.at_ms, d.kind, d.input_key, d.chosen, d.top_probability,
  d.probabilities, d.latency_ms`;
const UNLABELLED = `NOT EXISTS (SELECT 1 FROM decision_reviews r WHERE r.endpoint_name = d.endpoint_name
  AND r.object_key = d.object_key AND r.line = d.line AND r.item = d.item)`;

const variantList = (variants: readonly string[]) => JSON.stringify(variants);
const IN_VARIANTS = "d.variant IN (SELECT value FROM json_each(?))";

export type StoreOrder = "lowest-confidence" | "random";

// A plain equality when a kind is asked for, so that SQLite walks captured_decisions_confidence in order (a queue
// of one kind reads a few rows instead of sorting every kept decision).
const kindCondition = (kind: string | undefined) => (kind === undefined ? "1" : "d.kind = ?");
const kindParameter = (kind: string | undefined) => (kind === undefined ? [] : [kind]);

/** Unlabelled decisions of the given variants (and kind), lowest top probability first or in random order. */
export function unlabelledDecisions(
  db: Db,
  endpointName: string,
  filter: { variants: readonly string[]; kind?: string; order: StoreOrder; limit: number },
): KeyedDecision[] {
  const order =
    filter.order === "random"
      ? "RANDOM()"
      : "d.top_probability ASC, d.at_ms ASC, d.object_key ASC, d.line ASC, d.item ASC";
  const rows = db
    .prepare(
      `SELECT ${COLUMNS} FROM captured_decisions d WHERE d.endpoint_name = ? AND ${IN_VARIANTS}
       AND ${kindCondition(filter.kind)} AND ${UNLABELLED} ORDER BY ${order} LIMIT ?`,
    )
    .all(endpointName, variantList(filter.variants), ...kindParameter(filter.kind), filter.limit) as DecisionRow[];
  return rows.map(keyed);
}

export function countUnlabelled(db: Db, endpointName: string, variants: readonly string[], kind?: string): number {
  return db
    .prepare(
      `SELECT COUNT(*) FROM captured_decisions d WHERE d.endpoint_name = ? AND ${IN_VARIANTS}
       AND ${kindCondition(kind)} AND ${UNLABELLED}`,
    )
    .pluck()
    .get(endpointName, variantList(variants), ...kindParameter(kind)) as number;
}

/** The kept decisions of the given variants made since `fromMs`, oldest first (the shadow pairing reads them). */
export function keyedDecisions(
  db: Db,
  endpointName: string,
  variants: readonly string[],
  fromMs: number,
): KeyedDecision[] {
  const rows = db
    .prepare(
      `SELECT ${COLUMNS} FROM captured_decisions d WHERE d.endpoint_name = ? AND ${IN_VARIANTS} AND d.at_ms >= ?
       ORDER BY d.at_ms, d.object_key, d.line, d.item`,
    )
    .all(endpointName, variantList(variants), fromMs) as DecisionRow[];
  return rows.map(keyed);
}

export function isLabelled(db: Db, endpointName: string, key: CapturedDecisionKey): boolean {
  return (
    db
      .prepare("SELECT 1 FROM decision_reviews WHERE endpoint_name = ? AND object_key = ? AND line = ? AND item = ?")
      .get(endpointName, key.objectKey, key.line, key.item) !== undefined
  );
}

export function capturedDecision(db: Db, endpointName: string, key: CapturedDecisionKey): KeyedDecision | null {
  const row = db
    .prepare(
      `SELECT ${COLUMNS} FROM captured_decisions d
       WHERE d.endpoint_name = ? AND d.object_key = ? AND d.line = ? AND d.item = ?`,
    )
    .get(endpointName, key.objectKey, key.line, key.item) as DecisionRow | undefined;
  return row ? keyed(row) : null;
}

/** Stores a decision's label (null: skipped), replacing an earlier one: one label per decision. */
export function storeLabel(
  db: Db,
  endpointName: string,
  decision: KeyedDecision,
  sent: Decision,
  label: string | null,
  labelledBy: string,
  at = new Date(),
): ReviewLabel {
  const labelledAt = at.toISOString();
  db.prepare(
    `INSERT INTO decision_reviews (endpoint_name, object_key, line, item, kind, label, variant, at_ms, chosen,
       probabilities, decision, labelled_by, labelled_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (endpoint_name, object_key, line, item) DO UPDATE SET label = excluded.label,
       labelled_by = excluded.labelled_by, labelled_at = excluded.labelled_at`,
  ).run(
    endpointName,
    decision.objectKey,
    decision.line,
    decision.item,
    decision.kind,
    label,
    decision.variant,
    decision.atMs,
    decision.chosen,
    JSON.stringify(decision.probabilities),
    JSON.stringify(sent),
    labelledBy,
    labelledAt,
  );
  return {
    objectKey: decision.objectKey,
    line: decision.line,
    item: decision.item,
    kind: decision.kind,
    label,
    chosen: decision.chosen,
    labelledBy,
    labelledAt,
  };
}

type LabelRow = {
  object_key: string;
  line: number;
  item: number;
  kind: string;
  label: string | null;
  chosen: string;
  labelled_by: string;
  labelled_at: string;
};

const toLabel = (row: LabelRow): ReviewLabel => ({
  objectKey: row.object_key,
  line: row.line,
  item: row.item,
  kind: row.kind,
  label: row.label,
  chosen: row.chosen,
  labelledBy: row.labelled_by,
  labelledAt: row.labelled_at,
});

export function recentLabels(db: Db, endpointName: string, limit: number): ReviewLabel[] {
  const rows = db
    .prepare(
      `SELECT object_key, line, item, kind, label, chosen, labelled_by, labelled_at FROM decision_reviews
       WHERE endpoint_name = ? ORDER BY labelled_at DESC, object_key DESC, line DESC, item DESC LIMIT ?`,
    )
    .all(endpointName, limit) as LabelRow[];
  return rows.map(toLabel);
}

export function labelCounts(db: Db, endpointName: string): Map<string, { labelled: number; skipped: number }> {
  const rows = db
    .prepare(
      `SELECT kind, COUNT(label) AS labelled, SUM(label IS NULL) AS skipped FROM decision_reviews
       WHERE endpoint_name = ? GROUP BY kind`,
    )
    .all(endpointName) as { kind: string; labelled: number; skipped: number }[];
  return new Map(rows.map((row) => [row.kind, { labelled: row.labelled, skipped: row.skipped }]));
}

/** A label given (not skipped), with the decision as sent and the scores it got. */
export interface GivenLabel {
  key: CapturedDecisionKey;
  kind: string;
  label: string;
  chosen: string;
  probabilities: number[];
  decision: Decision;
  atMs: number;
}

/** The given labels of an endpoint's decisions, of one kind or all, made in [fromMs, toMs) when given. */
export function givenLabels(
  db: Db,
  endpointName: string,
  filter: { kind?: string; fromMs?: number; toMs?: number } = {},
): GivenLabel[] {
  const rows = db
    .prepare(
      `SELECT object_key, line, item, kind, label, chosen, probabilities, decision, at_ms FROM decision_reviews
       WHERE endpoint_name = ? AND label IS NOT NULL AND (? IS NULL OR kind = ?) AND at_ms >= ? AND at_ms < ?
       ORDER BY at_ms, object_key, line, item`,
    )
    .all(
      endpointName,
      filter.kind ?? null,
      filter.kind ?? null,
      filter.fromMs ?? Number.MIN_SAFE_INTEGER,
      filter.toMs ?? Number.MAX_SAFE_INTEGER,
    ) as (Omit<LabelRow, "labelled_by" | "labelled_at"> & {
    label: string;
    probabilities: string;
    decision: string;
    at_ms: number;
  })[];
  return rows.map((row) => ({
    key: { objectKey: row.object_key, line: row.line, item: row.item },
    kind: row.kind,
    label: row.label,
    chosen: row.chosen,
    probabilities: JSON.parse(row.probabilities),
    decision: JSON.parse(row.decision) as Decision,
    atMs: row.at_ms,
  }));
}

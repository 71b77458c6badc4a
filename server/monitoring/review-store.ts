import type { Decision } from "@decision-console/adapter/contract";
import { type NotNull, type Selectable, sql } from "kysely";
import type { CapturedDecisionKey, ReviewLabel } from "../../contract/endpoints/review.ts";
import { EVALUATION_INFERENCE_PREFIX } from "../../contract/evaluate/evaluation-traffic.ts";
import type { ConsoleTables } from "../store/schema.ts";
import type { Store } from "../store/store.ts";
import type { StoredDecision } from "./monitoring-store.ts";

/** A single captured decision with its key (captured_decisions), as the review queue reads it. */
export interface KeyedDecision extends StoredDecision, CapturedDecisionKey {
  variant: string;
}

type DecisionRow = Pick<
  Selectable<ConsoleTables["captured_decisions"]>,
  | "object_key"
  | "line"
  | "item"
  | "variant"
  | "at_ms"
  | "kind"
  | "input_key"
  | "chosen"
  | "top_probability"
  | "probabilities"
  | "latency_ms"
>;

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

const COLUMNS = [
  "d.object_key",
  "d.line",
  "d.item",
  "d.variant",
  "d.at_ms",
  "d.kind",
  "d.input_key",
  "d.chosen",
  "d.top_probability",
  "d.probabilities",
  "d.latency_ms",
] as const;

/** Which kept decisions a read covers: the variants (a list that is not empty), one kind or all, evaluation traffic too or not. */
export interface DecisionScope {
  variants: readonly string[];
  kind?: string;
  /** The console's evaluation runner's requests (EVALUATION_INFERENCE_PREFIX); left out unless asked for. */
  includeEvaluation?: boolean;
}

/**
 * The endpoint's kept decisions of the given variants (a list that is not empty), and of one kind when one is
 * asked for: a plain equality then, so that SQLite walks captured_decisions_confidence in order (a queue of one
 * kind reads a few rows instead of sorting every kept decision).
 */
function decisionsOf(store: Store, endpointName: string, scope: DecisionScope) {
  let query = store
    .selectFrom("captured_decisions as d")
    .where("d.endpoint_name", "=", endpointName)
    .where("d.variant", "in", scope.variants);
  if (scope.kind !== undefined) query = query.where("d.kind", "=", scope.kind);
  if (!scope.includeEvaluation) {
    query = query.where((eb) =>
      eb.or([eb("d.inference_id", "is", null), eb("d.inference_id", "not like", `${EVALUATION_INFERENCE_PREFIX}%`)]),
    );
  }
  return query;
}

type DecisionQuery = ReturnType<typeof decisionsOf>;

const unlabelled = (query: DecisionQuery) =>
  query.where(({ not, exists, selectFrom }) =>
    not(
      exists(
        selectFrom("decision_reviews as r")
          .select("r.item")
          .whereRef("r.endpoint_name", "=", "d.endpoint_name")
          .whereRef("r.object_key", "=", "d.object_key")
          .whereRef("r.line", "=", "d.line")
          .whereRef("r.item", "=", "d.item"),
      ),
    ),
  );

export type StoreOrder = "lowest-confidence" | "random";

/** Unlabelled decisions of the given variants (and kind), lowest top probability first or in random order. */
export async function unlabelledDecisions(
  store: Store,
  endpointName: string,
  filter: DecisionScope & { order: StoreOrder; limit: number },
): Promise<KeyedDecision[]> {
  if (filter.variants.length === 0) return [];
  const query = unlabelled(decisionsOf(store, endpointName, filter)).select(COLUMNS);
  const ordered =
    filter.order === "random"
      ? query.orderBy(sql`random()`)
      : query
          .orderBy("d.top_probability", "asc")
          .orderBy("d.at_ms", "asc")
          .orderBy("d.object_key", "asc")
          .orderBy("d.line", "asc")
          .orderBy("d.item", "asc");
  const rows = await ordered.limit(filter.limit).execute();
  return rows.map(keyed);
}

export async function countUnlabelled(store: Store, endpointName: string, scope: DecisionScope): Promise<number> {
  if (scope.variants.length === 0) return 0;
  const { count } = await unlabelled(decisionsOf(store, endpointName, scope))
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return count;
}

/** The kept decisions of the given variants made since `fromMs`, oldest first (the shadow pairing reads them). */
export async function keyedDecisions(
  store: Store,
  endpointName: string,
  scope: DecisionScope,
  fromMs: number,
): Promise<KeyedDecision[]> {
  if (scope.variants.length === 0) return [];
  const rows = await decisionsOf(store, endpointName, scope)
    .where("d.at_ms", ">=", fromMs)
    .select(COLUMNS)
    .orderBy("d.at_ms")
    .orderBy("d.object_key")
    .orderBy("d.line")
    .orderBy("d.item")
    .execute();
  return rows.map(keyed);
}

/** The keys (`decisionKey`) of the endpoint's labelled decisions made since `fromMs`, skipped ones too. */
export async function labelledSince(store: Store, endpointName: string, fromMs: number): Promise<Set<string>> {
  const rows = await store
    .selectFrom("decision_reviews")
    .select(["object_key", "line", "item"])
    .where("endpoint_name", "=", endpointName)
    .where("at_ms", ">=", fromMs)
    .execute();
  return new Set(rows.map((row) => decisionKey({ objectKey: row.object_key, line: row.line, item: row.item })));
}

/** A decision's key as one string. */
export const decisionKey = (key: CapturedDecisionKey) => JSON.stringify([key.objectKey, key.line, key.item]);

export async function capturedDecision(
  store: Store,
  endpointName: string,
  key: CapturedDecisionKey,
): Promise<KeyedDecision | null> {
  const row = await store
    .selectFrom("captured_decisions as d")
    .select(COLUMNS)
    .where("d.endpoint_name", "=", endpointName)
    .where("d.object_key", "=", key.objectKey)
    .where("d.line", "=", key.line)
    .where("d.item", "=", key.item)
    .executeTakeFirst();
  return row ? keyed(row) : null;
}

/** Stores a decision's label (null: skipped), replacing an earlier one: one label per decision. */
export async function storeLabel(
  store: Store,
  endpointName: string,
  decision: KeyedDecision,
  sent: Decision,
  label: string | null,
  labelledBy: string,
  at = new Date(),
): Promise<ReviewLabel> {
  const labelledAt = at.toISOString();
  await store
    .insertInto("decision_reviews")
    .values({
      endpoint_name: endpointName,
      object_key: decision.objectKey,
      line: decision.line,
      item: decision.item,
      kind: decision.kind,
      label,
      variant: decision.variant,
      at_ms: decision.atMs,
      chosen: decision.chosen,
      probabilities: JSON.stringify(decision.probabilities),
      decision: JSON.stringify(sent),
      labelled_by: labelledBy,
      labelled_at: labelledAt,
    })
    .onConflict((oc) =>
      oc.columns(["endpoint_name", "object_key", "line", "item"]).doUpdateSet((eb) => ({
        label: eb.ref("excluded.label"),
        labelled_by: eb.ref("excluded.labelled_by"),
        labelled_at: eb.ref("excluded.labelled_at"),
      })),
    )
    .execute();
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

export async function recentLabels(store: Store, endpointName: string, limit: number): Promise<ReviewLabel[]> {
  const rows = await store
    .selectFrom("decision_reviews")
    .select(["object_key", "line", "item", "kind", "label", "chosen", "labelled_by", "labelled_at"])
    .where("endpoint_name", "=", endpointName)
    .orderBy("labelled_at", "desc")
    .orderBy("object_key", "desc")
    .orderBy("line", "desc")
    .orderBy("item", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    objectKey: row.object_key,
    line: row.line,
    item: row.item,
    kind: row.kind,
    label: row.label,
    chosen: row.chosen,
    labelledBy: row.labelled_by,
    labelledAt: row.labelled_at,
  }));
}

export async function labelCounts(
  store: Store,
  endpointName: string,
): Promise<Map<string, { labelled: number; skipped: number }>> {
  const rows = await store
    .selectFrom("decision_reviews")
    .select((eb) => ["kind", eb.fn.count<number>("label").as("labelled"), eb.fn.countAll<number>().as("reviewed")])
    .where("endpoint_name", "=", endpointName)
    .groupBy("kind")
    .execute();
  return new Map(rows.map((row) => [row.kind, { labelled: row.labelled, skipped: row.reviewed - row.labelled }]));
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
export async function givenLabels(
  store: Store,
  endpointName: string,
  filter: { kind?: string; fromMs?: number; toMs?: number } = {},
): Promise<GivenLabel[]> {
  let query = store
    .selectFrom("decision_reviews")
    .select(["object_key", "line", "item", "kind", "label", "chosen", "probabilities", "decision", "at_ms"])
    .where("endpoint_name", "=", endpointName)
    .where("label", "is not", null);
  if (filter.kind !== undefined) query = query.where("kind", "=", filter.kind);
  if (filter.fromMs !== undefined) query = query.where("at_ms", ">=", filter.fromMs);
  if (filter.toMs !== undefined) query = query.where("at_ms", "<", filter.toMs);
  const rows = await query
    .$narrowType<{ label: NotNull }>()
    .orderBy("at_ms")
    .orderBy("object_key")
    .orderBy("line")
    .orderBy("item")
    .execute();
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

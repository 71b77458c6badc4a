import type { Insertable } from "kysely";
import type { CapturedDecisionKey } from "../../contract/endpoints/review.ts";
import { chunks } from "../store/chunks.ts";
import type { ConsoleTables } from "../store/schema.ts";
import type { Store } from "../store/store.ts";
import { labelFigures } from "./label-figures.ts";

/** A kept decision an inference id names, as a label is checked against it and stored with it. */
export interface LabelTarget extends CapturedDecisionKey {
  inferenceId: string | null;
  variant: string;
  kind: string;
  atMs: number;
  chosen: string;
  probabilities: number[];
}

/** A label for one decision, ready to store. */
export interface DecisionLabel {
  decision: LabelTarget;
  label: string;
  labelledAtMs: number;
  /** Where it came from: `api:<user>`, `s3://<bucket>/<key>` or `review:<user>`. */
  source: string;
}

/** Ids per query: one bound parameter each, under both dialects' limits (chunks.ts). */
const IDS_PER_QUERY = 1000;
/** Rows per multi-row INSERT: 18 columns each. */
const ROWS_PER_INSERT = 500;

/** The kept decisions of `endpointName` captured under each of `inferenceIds`, every variant's. */
export async function decisionsByInferenceId(
  store: Store,
  endpointName: string,
  inferenceIds: readonly string[],
): Promise<Map<string, LabelTarget[]>> {
  const found = new Map<string, LabelTarget[]>();
  for (const some of chunks([...new Set(inferenceIds)], IDS_PER_QUERY)) {
    const rows = await store
      .selectFrom("captured_decisions")
      .select(["object_key", "line", "item", "inference_id", "variant", "kind", "at_ms", "chosen", "probabilities"])
      .where("endpoint_name", "=", endpointName)
      .where("inference_id", "in", some)
      .orderBy("at_ms")
      .orderBy("object_key")
      .orderBy("line")
      .orderBy("item")
      .execute();
    for (const row of rows) {
      const id = row.inference_id ?? "";
      const targets = found.get(id) ?? [];
      targets.push({
        objectKey: row.object_key,
        line: row.line,
        item: row.item,
        inferenceId: row.inference_id,
        variant: row.variant,
        kind: row.kind,
        atMs: row.at_ms,
        chosen: row.chosen,
        probabilities: JSON.parse(row.probabilities),
      });
      found.set(id, targets);
    }
  }
  return found;
}

const keyOf = (key: CapturedDecisionKey) => JSON.stringify([key.objectKey, key.line, key.item]);

interface StoredLabel {
  label: string;
  labelledAtMs: number;
}

async function storedLabels(
  store: Store,
  endpointName: string,
  decisions: readonly CapturedDecisionKey[],
): Promise<Map<string, StoredLabel>> {
  const stored = new Map<string, StoredLabel>();
  const byObject = new Map<string, CapturedDecisionKey[]>();
  for (const decision of decisions) {
    const ofObject = byObject.get(decision.objectKey);
    if (ofObject) ofObject.push(decision);
    else byObject.set(decision.objectKey, [decision]);
  }
  for (const [objectKey, ofObject] of byObject) {
    for (const some of chunks(ofObject, IDS_PER_QUERY)) {
      const rows = await store
        .selectFrom("ground_truth_labels")
        .select(["line", "item", "label", "labelled_at_ms"])
        .where("endpoint_name", "=", endpointName)
        .where("object_key", "=", objectKey)
        .where(
          "line",
          "in",
          some.map((decision) => decision.line),
        )
        .execute();
      for (const row of rows) {
        stored.set(keyOf({ objectKey, line: row.line, item: row.item }), {
          label: row.label,
          labelledAtMs: row.labelled_at_ms,
        });
      }
    }
  }
  return stored;
}

/** The options of each of `kinds` the endpoint has decided. */
async function kindOptions(store: Store, endpointName: string, kinds: readonly string[]) {
  const options = new Map<string, string[]>();
  for (const some of chunks([...new Set(kinds)], IDS_PER_QUERY)) {
    const rows = await store
      .selectFrom("decision_kinds")
      .select(["kind", "options"])
      .where("endpoint_name", "=", endpointName)
      .where("kind", "in", some)
      .execute();
    for (const row of rows) options.set(row.kind, JSON.parse(row.options));
  }
  return options;
}

/**
 * Stores labels, one per decision. A label learnt no earlier than the one stored replaces it (a correction); an
 * earlier one, or the same label again, changes nothing, so a batch or a file sent twice stores nothing twice.
 */
export async function storeDecisionLabels(
  store: Store,
  endpointName: string,
  labels: readonly DecisionLabel[],
): Promise<{ stored: number; unchanged: number }> {
  return await store.transaction().execute(async (trx) => {
    const current = await storedLabels(
      trx,
      endpointName,
      labels.map((label) => label.decision),
    );
    const changed = new Map<string, DecisionLabel>();
    let unchanged = 0;
    for (const label of labels) {
      const key = keyOf(label.decision);
      const before = changed.get(key) ?? current.get(key);
      const same = before && before.label === label.label && before.labelledAtMs === label.labelledAtMs;
      if (same || (before && before.labelledAtMs > label.labelledAtMs)) {
        unchanged++;
        continue;
      }
      changed.set(key, label);
    }
    const optionsOf = await kindOptions(
      trx,
      endpointName,
      [...changed.values()].map((label) => label.decision.kind),
    );
    const rows = [...changed.values()].map(
      ({ decision, label, labelledAtMs, source }): Insertable<ConsoleTables["ground_truth_labels"]> => ({
        endpoint_name: endpointName,
        object_key: decision.objectKey,
        line: decision.line,
        item: decision.item,
        inference_id: decision.inferenceId,
        variant: decision.variant,
        kind: decision.kind,
        at_ms: decision.atMs,
        chosen: decision.chosen,
        probabilities: JSON.stringify(decision.probabilities),
        label,
        labelled_at_ms: labelledAtMs,
        source,
        ...labelFigures({
          options: optionsOf.get(decision.kind) ?? [],
          probabilities: decision.probabilities,
          label,
          atMs: decision.atMs,
          labelledAtMs,
        }),
      }),
    );
    for (const some of chunks(rows, ROWS_PER_INSERT)) {
      await trx
        .insertInto("ground_truth_labels")
        .values(some)
        .onConflict((oc) =>
          oc.columns(["endpoint_name", "object_key", "line", "item"]).doUpdateSet((eb) => ({
            label: eb.ref("excluded.label"),
            labelled_at_ms: eb.ref("excluded.labelled_at_ms"),
            source: eb.ref("excluded.source"),
            correct: eb.ref("excluded.correct"),
            brier: eb.ref("excluded.brier"),
            delay_ms: eb.ref("excluded.delay_ms"),
          })),
        )
        .execute();
    }
    return { stored: changed.size, unchanged };
  });
}

/** The inference id a kept decision was captured under, or null without one. */
export async function inferenceIdOf(
  store: Store,
  endpointName: string,
  key: CapturedDecisionKey,
): Promise<string | null> {
  const row = await store
    .selectFrom("captured_decisions")
    .select("inference_id")
    .where("endpoint_name", "=", endpointName)
    .where("object_key", "=", key.objectKey)
    .where("line", "=", key.line)
    .where("item", "=", key.item)
    .executeTakeFirst();
  return row?.inference_id ?? null;
}

/** Removes a decision's label that the review queue gave (a reviewer who skips it takes the label back). */
export async function forgetReviewLabel(store: Store, endpointName: string, key: CapturedDecisionKey): Promise<void> {
  await store
    .deleteFrom("ground_truth_labels")
    .where("endpoint_name", "=", endpointName)
    .where("object_key", "=", key.objectKey)
    .where("line", "=", key.line)
    .where("item", "=", key.item)
    .where("source", "like", "review:%")
    .execute();
}

/** A stored label with its decision's time, kind and scores. */
export interface RealisedLabel {
  variant: string;
  kind: string;
  atMs: number;
  chosen: string;
  probabilities: number[];
  label: string;
  labelledAtMs: number;
}

/**
 * The newest `limit` labels of decisions `variants` of `endpointName` made in [fromMs, toMs), oldest decision first.
 */
export async function newestLabels(
  store: Store,
  endpointName: string,
  variants: readonly string[],
  window: { fromMs: number; toMs: number },
  limit: number,
): Promise<RealisedLabel[]> {
  if (variants.length === 0) return [];
  const rows = await store
    .selectFrom("ground_truth_labels")
    .select(["variant", "kind", "at_ms", "chosen", "probabilities", "label", "labelled_at_ms"])
    .where("endpoint_name", "=", endpointName)
    .where("at_ms", ">=", window.fromMs)
    .where("at_ms", "<", window.toMs)
    .where("variant", "in", variants)
    .orderBy("at_ms", "desc")
    .orderBy("object_key", "desc")
    .orderBy("line", "desc")
    .orderBy("item", "desc")
    .limit(limit)
    .execute();
  return rows.reverse().map((row) => ({
    variant: row.variant,
    kind: row.kind,
    atMs: Number(row.at_ms),
    chosen: row.chosen,
    probabilities: JSON.parse(row.probabilities),
    label: row.label,
    labelledAtMs: Number(row.labelled_at_ms),
  }));
}

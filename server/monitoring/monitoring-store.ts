import type { Insertable } from "kysely";
import { TOP_PROBABILITY_BINS } from "../../contract/endpoints/monitoring.ts";
import { isEvaluationTraffic } from "../../contract/evaluate/evaluation-traffic.ts";
import { chunks } from "../store/chunks.ts";
import type { ConsoleTables } from "../store/schema.ts";
import type { Store } from "../store/store.ts";
import type { CapturedDecision } from "./capture-record.ts";
import { addBins, emptyBins, LATENCY_BINS, latencyBin, topProbabilityBin } from "./histograms.ts";

/**
 * What the Monitoring view reads: each capture object once (`capture_objects`), its decisions folded into
 * per-minute rollups by variant, decision kind and chosen option, with the top probabilities in hundredths and the
 * latencies in quarter-octave bins. A window is then a few thousand rows, however many decisions it holds.
 */
/** A decision and the line of its record in the capture object (0-based). */
export type LocatedDecision = CapturedDecision & { line: number };

export interface CaptureObjectReading {
  endpointName: string;
  key: string;
  variant: string;
  records: number;
  unreadable: number;
  decisions: LocatedDecision[];
}

export interface Rollup {
  variant: string;
  minute: number;
  kind: string;
  chosen: string;
  decisions: number;
  topBins: number[];
  latencyBins: number[];
  latencySumMs: number;
  latencyCount: number;
}

/** Rows per multi-row INSERT: 12 columns each, 12,000 bound parameters (chunks.ts). */
const ROWS_PER_INSERT = 1000;

/** The keys among `keys` whose objects are read already. */
export async function objectsRead(store: Store, endpointName: string, keys: readonly string[]): Promise<Set<string>> {
  const read = new Set<string>();
  for (const some of chunks(keys, ROWS_PER_INSERT)) {
    const rows = await store
      .selectFrom("capture_objects")
      .select("object_key")
      .where("endpoint_name", "=", endpointName)
      .where("object_key", "in", some)
      .execute();
    for (const row of rows) read.add(row.object_key);
  }
  return read;
}

/** The newest object read of each variant: where the next look starts listing. */
export async function newestObjects(store: Store, endpointName: string): Promise<Map<string, string>> {
  // A variant's keys share one layout (`<variant>/yyyy/mm/dd/hh/mm-ss-mmm-<uuid>.jsonl`), so the greatest is the
  // newest under any collation.
  const rows = await store
    .selectFrom("capture_objects")
    .select((eb) => ["variant", eb.fn.max("object_key").as("newest")])
    .where("endpoint_name", "=", endpointName)
    .groupBy("variant")
    .execute();
  return new Map(rows.map((row) => [row.variant, row.newest]));
}

const bump = (bins: number[], bin: number) => {
  bins[bin] = (bins[bin] ?? 0) + 1;
};

function folded(decisions: readonly CapturedDecision[], variant: string): Map<string, Rollup> {
  const groups = new Map<string, Rollup>();
  for (const decision of decisions) {
    const minute = Math.floor(decision.at.getTime() / 60_000);
    const id = JSON.stringify([minute, decision.kind, decision.chosen]);
    let rollup = groups.get(id);
    if (!rollup) {
      rollup = {
        variant,
        minute,
        kind: decision.kind,
        chosen: decision.chosen,
        decisions: 0,
        topBins: emptyBins(TOP_PROBABILITY_BINS),
        latencyBins: emptyBins(LATENCY_BINS),
        latencySumMs: 0,
        latencyCount: 0,
      };
      groups.set(id, rollup);
    }
    rollup.decisions++;
    bump(rollup.topBins, topProbabilityBin(decision.topProbability));
    if (decision.latencyMs !== null) {
      bump(rollup.latencyBins, latencyBin(decision.latencyMs));
      rollup.latencySumMs += decision.latencyMs;
      rollup.latencyCount++;
    }
  }
  return groups;
}

const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The rollups in one order, kinds too: every console takes the row locks of a minute's rollups in the same order,
 * so two recording overlapping minutes wait for each other instead of deadlocking.
 */
const inLockOrder = (rollups: Iterable<Rollup>) =>
  [...rollups].sort(
    (a, b) =>
      a.minute - b.minute ||
      byteOrder(a.variant, b.variant) ||
      byteOrder(a.kind, b.kind) ||
      byteOrder(a.chosen, b.chosen),
  );

const rollupId = (rollup: Pick<Rollup, "variant" | "minute" | "kind" | "chosen">) =>
  JSON.stringify([rollup.variant, rollup.minute, rollup.kind, rollup.chosen]);

/** A capture object as read, to record for `endpointName`. */
export type CapturedObject = Omit<CaptureObjectReading, "endpointName">;

/**
 * Claims the objects, in key order (so two consoles claiming the same ones wait for each other rather than
 * deadlock): the ones not read already, by this console or another.
 */
async function claimObjects(store: Store, endpointName: string, objects: readonly CapturedObject[]) {
  const readAt = new Date().toISOString();
  const claimed: CapturedObject[] = [];
  for (const object of [...objects].sort((a, b) => byteOrder(a.key, b.key))) {
    const claim = await store
      .insertInto("capture_objects")
      .values({
        endpoint_name: endpointName,
        object_key: object.key,
        variant: object.variant,
        records: object.records,
        decisions: object.decisions.length,
        unreadable: object.unreadable,
        read_at: readAt,
      })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    if ((claim.numInsertedOrUpdatedRows ?? 0n) > 0n) claimed.push(object);
  }
  return claimed;
}

async function keepDecisions(store: Store, endpointName: string, objects: readonly CapturedObject[]): Promise<void> {
  const rows = objects.flatMap((object) =>
    object.decisions.map(
      (decision): Insertable<ConsoleTables["captured_decisions"]> => ({
        endpoint_name: endpointName,
        object_key: object.key,
        line: decision.line,
        item: decision.item,
        variant: object.variant,
        at_ms: decision.at.getTime(),
        kind: decision.kind,
        input_key: decision.inputKey,
        chosen: decision.chosen,
        top_probability: decision.topProbability,
        probabilities: JSON.stringify(decision.probabilities),
        latency_ms: decision.latencyMs,
        inference_id: decision.inferenceId,
      }),
    ),
  );
  for (const some of chunks(rows, ROWS_PER_INSERT)) {
    await store
      .insertInto("captured_decisions")
      .values(some)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

async function knowKinds(store: Store, endpointName: string, objects: readonly CapturedObject[]): Promise<void> {
  const kinds = new Map<string, Insertable<ConsoleTables["decision_kinds"]>>();
  for (const decision of objects.flatMap((object) => object.decisions)) {
    if (kinds.has(decision.kind)) continue;
    kinds.set(decision.kind, {
      endpoint_name: endpointName,
      kind: decision.kind,
      question: decision.question,
      options: JSON.stringify(decision.options),
    });
  }
  const rows = [...kinds.values()].sort((a, b) => byteOrder(a.kind, b.kind));
  for (const some of chunks(rows, ROWS_PER_INSERT)) {
    await store
      .insertInto("decision_kinds")
      .values(some)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/**
 * Adds rollups to the stored ones. The counts and sums add up in the upsert itself, so two consoles recording the
 * same minute at once both count; the upsert also locks the row until the transaction ends, and a row that existed
 * (its decisions are more than ours: a stored rollup holds at least one) then gets its bins added up here.
 */
async function addRollups(store: Store, endpointName: string, rollups: readonly Rollup[]): Promise<void> {
  for (const some of chunks(rollups, ROWS_PER_INSERT)) {
    const stored = await store
      .insertInto("decision_rollups")
      .values(
        some.map((rollup) => ({
          endpoint_name: endpointName,
          variant: rollup.variant,
          minute: rollup.minute,
          kind: rollup.kind,
          chosen: rollup.chosen,
          decisions: rollup.decisions,
          top_bins: JSON.stringify(rollup.topBins),
          latency_bins: JSON.stringify(rollup.latencyBins),
          latency_sum_ms: rollup.latencySumMs,
          latency_count: rollup.latencyCount,
        })),
      )
      .onConflict((oc) =>
        oc.columns(["endpoint_name", "minute", "variant", "kind", "chosen"]).doUpdateSet((eb) => ({
          decisions: eb("decision_rollups.decisions", "+", eb.ref("excluded.decisions")),
          latency_sum_ms: eb("decision_rollups.latency_sum_ms", "+", eb.ref("excluded.latency_sum_ms")),
          latency_count: eb("decision_rollups.latency_count", "+", eb.ref("excluded.latency_count")),
        })),
      )
      .returning(["variant", "minute", "kind", "chosen", "decisions", "top_bins", "latency_bins"])
      .execute();
    const ours = new Map(some.map((rollup) => [rollupId(rollup), rollup]));
    for (const row of stored) {
      const rollup = ours.get(rollupId(row));
      if (!rollup || row.decisions === rollup.decisions) continue;
      const topBins: number[] = JSON.parse(row.top_bins);
      const latencyBins: number[] = JSON.parse(row.latency_bins);
      addBins(topBins, rollup.topBins);
      addBins(latencyBins, rollup.latencyBins);
      await store
        .updateTable("decision_rollups")
        .set({ top_bins: JSON.stringify(topBins), latency_bins: JSON.stringify(latencyBins) })
        .where("endpoint_name", "=", endpointName)
        .where("minute", "=", row.minute)
        .where("variant", "=", row.variant)
        .where("kind", "=", row.kind)
        .where("chosen", "=", row.chosen)
        .execute();
    }
  }
}

/** The production decisions of `objects` (all one endpoint's) folded into rollups, variant by variant. */
function productionRollups(objects: readonly CapturedObject[]): Rollup[] {
  const byVariant = new Map<string, CapturedDecision[]>();
  for (const object of objects) {
    // Evaluation traffic is kept as single decisions (the review queue can include it) but left out of the
    // rollups that Monitoring and drift read: they describe production.
    const production = byVariant.get(object.variant) ?? [];
    for (const decision of object.decisions) if (!isEvaluationTraffic(decision.inferenceId)) production.push(decision);
    byVariant.set(object.variant, production);
  }
  return [...byVariant].flatMap(([variant, decisions]) => [...folded(decisions, variant).values()]);
}

/**
 * Records capture objects of one endpoint in one transaction, each once: a key already read changes nothing.
 * Returns how many were new.
 */
export async function recordCaptureObjects(
  store: Store,
  endpointName: string,
  objects: readonly CapturedObject[],
): Promise<number> {
  if (objects.length === 0) return 0;
  return await store.transaction().execute(async (trx) => {
    const claimed = await claimObjects(trx, endpointName, objects);
    await keepDecisions(trx, endpointName, claimed);
    await knowKinds(trx, endpointName, claimed);
    await addRollups(trx, endpointName, inLockOrder(productionRollups(claimed)));
    return claimed.length;
  });
}

/** Records one capture object's decisions, once: a key already read changes nothing. */
export async function recordCaptureObject(store: Store, reading: CaptureObjectReading): Promise<void> {
  const { endpointName, ...object } = reading;
  await recordCaptureObjects(store, endpointName, [object]);
}

/** The rollups of minutes [fromMinute, toMinute), of one variant or all. */
export async function rollupsBetween(
  store: Store,
  endpointName: string,
  fromMinute: number,
  toMinute: number,
  variant: string | undefined,
): Promise<Rollup[]> {
  let query = store
    .selectFrom("decision_rollups")
    .select([
      "variant",
      "minute",
      "kind",
      "chosen",
      "decisions",
      "top_bins",
      "latency_bins",
      "latency_sum_ms",
      "latency_count",
    ])
    .where("endpoint_name", "=", endpointName)
    .where("minute", ">=", fromMinute)
    .where("minute", "<", toMinute);
  if (variant !== undefined) query = query.where("variant", "=", variant);
  const rows = await query.execute();
  return rows.map((row) => ({
    variant: row.variant,
    minute: row.minute,
    kind: row.kind,
    chosen: row.chosen,
    decisions: row.decisions,
    topBins: JSON.parse(row.top_bins),
    latencyBins: JSON.parse(row.latency_bins),
    latencySumMs: row.latency_sum_ms,
    latencyCount: row.latency_count,
  }));
}

export async function decisionKinds(
  store: Store,
  endpointName: string,
): Promise<Map<string, { question: string; options: string[] }>> {
  const rows = await store
    .selectFrom("decision_kinds")
    .select(["kind", "question", "options"])
    .where("endpoint_name", "=", endpointName)
    .execute();
  return new Map(rows.map((row) => [row.kind, { question: row.question, options: JSON.parse(row.options) }]));
}

export async function captureTotals(
  store: Store,
  endpointName: string,
): Promise<{ objects: number; unreadable: number }> {
  return await store
    .selectFrom("capture_objects")
    .select((eb) => [
      eb.fn.countAll<number>().as("objects"),
      eb.fn.coalesce(eb.fn.sum<number>("unreadable"), eb.lit(0)).as("unreadable"),
    ])
    .where("endpoint_name", "=", endpointName)
    .executeTakeFirstOrThrow();
}

/** How long single decisions are kept (for shadow comparison and review); the rollups are kept for good. */
export const DECISION_RETENTION_MS = 7 * 24 * 3_600_000;

export async function forgetOldDecisions(store: Store, endpointName: string, now: Date): Promise<void> {
  await store
    .deleteFrom("captured_decisions")
    .where("endpoint_name", "=", endpointName)
    .where("at_ms", "<", now.getTime() - DECISION_RETENTION_MS)
    .execute();
}

export interface StoredDecision {
  atMs: number;
  kind: string;
  inputKey: string;
  item: number;
  chosen: string;
  topProbability: number;
  probabilities: number[];
  latencyMs: number | null;
}

/** One variant's decisions of [fromMs, toMs), oldest first. */
export async function variantDecisions(
  store: Store,
  endpointName: string,
  variant: string,
  fromMs: number,
  toMs: number,
): Promise<StoredDecision[]> {
  const rows = await store
    .selectFrom("captured_decisions")
    .select(["at_ms", "kind", "input_key", "item", "chosen", "top_probability", "probabilities", "latency_ms"])
    .where("endpoint_name", "=", endpointName)
    .where("variant", "=", variant)
    .where("at_ms", ">=", fromMs)
    .where("at_ms", "<", toMs)
    .orderBy("at_ms")
    .execute();
  return rows.map(
    (row): StoredDecision => ({
      atMs: row.at_ms,
      kind: row.kind,
      inputKey: row.input_key,
      item: row.item,
      chosen: row.chosen,
      topProbability: row.top_probability,
      probabilities: JSON.parse(row.probabilities),
      latencyMs: row.latency_ms,
    }),
  );
}

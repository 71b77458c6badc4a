import { TOP_PROBABILITY_BINS } from "../../contract/endpoints/monitoring.ts";
import type { Db } from "../store/database.ts";
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

type RollupRow = {
  variant: string;
  minute: number;
  kind: string;
  chosen: string;
  decisions: number;
  top_bins: string;
  latency_bins: string;
  latency_sum_ms: number;
  latency_count: number;
};

export function objectsRead(db: Db, endpointName: string, keys: readonly string[]): Set<string> {
  const read = new Set<string>();
  const statement = db.prepare("SELECT 1 FROM capture_objects WHERE endpoint_name = ? AND object_key = ?").pluck();
  for (const key of keys) if (statement.get(endpointName, key)) read.add(key);
  return read;
}

/** The newest object read of each variant: where the next look starts listing. */
export function newestObjects(db: Db, endpointName: string): Map<string, string> {
  const rows = db
    .prepare("SELECT variant, MAX(object_key) AS newest FROM capture_objects WHERE endpoint_name = ? GROUP BY variant")
    .all(endpointName) as { variant: string; newest: string }[];
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

/** Records one capture object's decisions, once: a key already read changes nothing. */
export function recordCaptureObject(db: Db, reading: CaptureObjectReading): void {
  const existing = db.prepare(
    `SELECT decisions, top_bins, latency_bins, latency_sum_ms, latency_count FROM decision_rollups
     WHERE endpoint_name = ? AND minute = ? AND variant = ? AND kind = ? AND chosen = ?`,
  );
  const upsert = db.prepare(
    `INSERT INTO decision_rollups (endpoint_name, variant, minute, kind, chosen, decisions, top_bins, latency_bins,
       latency_sum_ms, latency_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (endpoint_name, minute, variant, kind, chosen) DO UPDATE SET decisions = excluded.decisions,
       top_bins = excluded.top_bins, latency_bins = excluded.latency_bins,
       latency_sum_ms = excluded.latency_sum_ms, latency_count = excluded.latency_count`,
  );
  const kind = db.prepare(
    "INSERT INTO decision_kinds (endpoint_name, kind, question, options) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
  );
  const decisionRow = db.prepare(
    `INSERT INTO captured_decisions (endpoint_name, object_key, line, item, variant, at_ms, kind, input_key, chosen,
       top_probability, probabilities, latency_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  db.transaction(() => {
    const claimed = db
      .prepare(
        `INSERT INTO capture_objects (endpoint_name, object_key, variant, records, decisions, unreadable, read_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      )
      .run(
        reading.endpointName,
        reading.key,
        reading.variant,
        reading.records,
        reading.decisions.length,
        reading.unreadable,
        new Date().toISOString(),
      );
    if (claimed.changes === 0) return;
    for (const decision of reading.decisions) {
      decisionRow.run(
        reading.endpointName,
        reading.key,
        decision.line,
        decision.item,
        reading.variant,
        decision.at.getTime(),
        decision.kind,
        decision.inputKey,
        decision.chosen,
        decision.topProbability,
        JSON.stringify(decision.probabilities),
        decision.latencyMs,
      );
    }
    const kinds = new Set<string>();
    for (const decision of reading.decisions) {
      if (kinds.has(decision.kind)) continue;
      kinds.add(decision.kind);
      kind.run(reading.endpointName, decision.kind, decision.question, JSON.stringify(decision.options));
    }
    for (const rollup of folded(reading.decisions, reading.variant).values()) {
      const row = existing.get(reading.endpointName, rollup.minute, rollup.variant, rollup.kind, rollup.chosen) as
        | Pick<RollupRow, "decisions" | "top_bins" | "latency_bins" | "latency_sum_ms" | "latency_count">
        | undefined;
      if (row) {
        rollup.decisions += row.decisions;
        addBins(rollup.topBins, JSON.parse(row.top_bins));
        addBins(rollup.latencyBins, JSON.parse(row.latency_bins));
        rollup.latencySumMs += row.latency_sum_ms;
        rollup.latencyCount += row.latency_count;
      }
      upsert.run(
        reading.endpointName,
        rollup.variant,
        rollup.minute,
        rollup.kind,
        rollup.chosen,
        rollup.decisions,
        JSON.stringify(rollup.topBins),
        JSON.stringify(rollup.latencyBins),
        rollup.latencySumMs,
        rollup.latencyCount,
      );
    }
  })();
}

/** The rollups of minutes [fromMinute, toMinute), of one variant or all. */
export function rollupsBetween(
  db: Db,
  endpointName: string,
  fromMinute: number,
  toMinute: number,
  variant: string | undefined,
): Rollup[] {
  const rows = db
    .prepare(
      `SELECT variant, minute, kind, chosen, decisions, top_bins, latency_bins, latency_sum_ms, latency_count
       FROM decision_rollups WHERE endpoint_name = ? AND minute >= ? AND minute < ? AND (? IS NULL OR variant = ?)`,
    )
    .all(endpointName, fromMinute, toMinute, variant ?? null, variant ?? null) as RollupRow[];
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

export function decisionKinds(db: Db, endpointName: string): Map<string, { question: string; options: string[] }> {
  const rows = db
    .prepare("SELECT kind, question, options FROM decision_kinds WHERE endpoint_name = ?")
    .all(endpointName) as { kind: string; question: string; options: string }[];
  return new Map(rows.map((row) => [row.kind, { question: row.question, options: JSON.parse(row.options) }]));
}

export function captureTotals(db: Db, endpointName: string): { objects: number; unreadable: number } {
  return db
    .prepare(
      "SELECT COUNT(*) AS objects, COALESCE(SUM(unreadable), 0) AS unreadable FROM capture_objects WHERE endpoint_name = ?",
    )
    .get(endpointName) as { objects: number; unreadable: number };
}

/** How long single decisions are kept (for shadow comparison and review); the rollups are kept for good. */
export const DECISION_RETENTION_MS = 7 * 24 * 3_600_000;

export function forgetOldDecisions(db: Db, endpointName: string, now: Date): void {
  db.prepare("DELETE FROM captured_decisions WHERE endpoint_name = ? AND at_ms < ?").run(
    endpointName,
    now.getTime() - DECISION_RETENTION_MS,
  );
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
export function variantDecisions(db: Db, endpointName: string, variant: string, fromMs: number, toMs: number) {
  const rows = db
    .prepare(
      `SELECT at_ms, kind, input_key, item, chosen, top_probability, probabilities, latency_ms FROM captured_decisions
       WHERE endpoint_name = ? AND variant = ? AND at_ms >= ? AND at_ms < ? ORDER BY at_ms`,
    )
    .all(endpointName, variant, fromMs, toMs) as {
    at_ms: number;
    kind: string;
    input_key: string;
    item: number;
    chosen: string;
    top_probability: number;
    probabilities: string;
    latency_ms: number | null;
  }[];
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

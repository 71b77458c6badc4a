import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import type { StoreDialect } from "../../../server/store/store.ts";
import { migrationsAt55aa16b } from "./migrations-55aa16b.ts";
import { createTestPostgresDatabase } from "./test-stores.ts";

/**
 * One row in every table of the console's schema, in an order that satisfies the foreign keys. The tables that
 * number their rows (audit_log, console_invocations) number this one 1.
 */
export const rowInEveryTable: Record<string, Record<string, string | number | null>> = {
  settings: { key: "theme", value: "dark", updated_at: "2026-12-01T10:00:00.000Z" },
  leases: { name: "evaluation-run:r1", holder: "replica-a", expires_at_ms: 1_780_000_000_123, acquired_at: "t" },
  evaluation_datasets: {
    id: "d1",
    name: "tickets",
    source: "upload",
    format: "jsonl",
    item_count: 1,
    created_at: "2026-12-01T10:00:00.000Z",
  },
  evaluation_dataset_items: {
    dataset_id: "d1",
    position: 0,
    item_id: "i1",
    decision: '{"id":"i1"}',
    answer: "a",
    category: "billing",
    tier: null,
  },
  evaluation_runs: {
    id: "r1",
    dataset_id: "d1",
    status: "completed",
    concurrency: 2,
    target_accuracy: 0.8125,
    created_at: "2026-12-01T10:00:00.000Z",
    resumed_at: "2026-12-01T10:00:01.000Z",
    finished_at: "2026-12-01T10:05:00.000Z",
    failure: null,
  },
  evaluation_targets: { run_id: "r1", slot: 0, endpoint_name: "dc-cpu", configuration: '{"instanceType":"x"}' },
  evaluation_results: {
    run_id: "r1",
    slot: 0,
    position: 0,
    item_id: "i1",
    option_ids: '["a","b"]',
    probabilities: "[0.75,0.25]",
    logits: "[1.5,0.4]",
    chosen: "a",
    latency_ms: 12.345678901,
    adapter_ms: 10.5,
    attempts: 1,
    error_kind: null,
    error_message: null,
    finished_at: "2026-12-01T10:01:00.000Z",
  },
  evaluation_batch_jobs: {
    run_id: "r1",
    job_name: "dc-eval-r1",
    model_name: "dc-model",
    instance_type: "ml.c6i.2xlarge",
    instance_count: 2,
    max_concurrent_transforms: null,
    input_s3_uri: "s3://b/in/",
    output_s3_uri: "s3://b/out/",
  },
  users: { name: "ana", role: "operator", password_hash: "$argon2id$x", created_at: "t0", updated_at: "t1" },
  audit_log: {
    at: "2026-12-01T10:00:00.000Z",
    actor: "ana",
    action: "endpoint.delete",
    target: "dc-cpu",
    aws_request_id: "req-1",
    result: "ok",
    detail: null,
  },
  revoked_sessions: { jti: "j1", expires_at: "2026-12-02T10:00:00.000Z" },
  sign_in_buckets: { bucket: "user:ana", tokens: 4.25, at_ms: 1_780_000_000_456 },
  console_invocations: {
    endpoint_name: "dc-cpu",
    at: "2026-12-01T10:00:00.000Z",
    stream: 1,
    status: 200,
    latency_ms: 88.125,
    retries: 0,
    request_bytes: 120,
    request_preview: "{}",
    error: null,
    user_name: "ana",
  },
  endpoint_summaries: { endpoint_name: "dc-cpu", listing_key: "k", summary: "{}", stored_at: "t" },
  async_requests: {
    inference_id: "inf-1",
    endpoint_name: "dc-async",
    input_location: "s3://b/in/1",
    output_location: "s3://b/out/1",
    failure_location: null,
    sender_kind: "evaluation",
    user_name: null,
    run_id: "r1",
    slot: 0,
    position: 0,
    item_id: "i1",
    submitted_at: "2026-12-01T10:00:00.000Z",
    state: "queued",
    checked_at: null,
    accepted_at: null,
  },
  capture_objects: {
    endpoint_name: "dc-cpu",
    object_key: "capture/1.jsonl",
    variant: "AllTraffic",
    records: 3,
    decisions: 4,
    unreadable: 0,
    read_at: "t",
  },
  decision_kinds: { endpoint_name: "dc-cpu", kind: "k1", question: "Route?", options: '["a","b"]' },
  decision_rollups: {
    endpoint_name: "dc-cpu",
    variant: "AllTraffic",
    minute: 29_666_666,
    kind: "k1",
    chosen: "a",
    decisions: 4,
    top_bins: "[0,4]",
    latency_bins: "[4]",
    latency_sum_ms: 40.5,
    latency_count: 4,
  },
  captured_decisions: {
    endpoint_name: "dc-cpu",
    object_key: "capture/1.jsonl",
    line: 1,
    item: 0,
    variant: "AllTraffic",
    at_ms: 1_780_000_000_789,
    kind: "k1",
    input_key: "ik",
    chosen: "a",
    top_probability: 0.987654321012,
    probabilities: "[0.987654321012,0.012345678988]",
    latency_ms: null,
  },
  shadow_tests: {
    endpoint_name: "dc-cpu",
    shadow_config: "c2",
    previous_config: "c1",
    change: "{}",
    sampling_percentage: 20,
    started_at: "t",
    started_by: "ana",
  },
  decision_reviews: {
    endpoint_name: "dc-cpu",
    object_key: "capture/1.jsonl",
    line: 1,
    item: 0,
    kind: "k1",
    label: null,
    variant: "AllTraffic",
    at_ms: 1_780_000_000_789,
    chosen: "a",
    probabilities: "[]",
    decision: "{}",
    labelled_by: "ana",
    labelled_at: "t",
  },
  drift_baselines: {
    endpoint_name: "dc-cpu",
    kind: "k1",
    question: "Route?",
    options: '["a","b"]',
    option_counts: "[3,1]",
    top_bins: "[0,4]",
    decisions: 4,
    source: "run:r1",
    set_by: "ana",
    set_at: "t",
  },
  endpoint_thresholds: { endpoint_name: "dc-cpu", threshold: 0.65, set_by: "ana", set_at: "t" },
  shadow_promotions: {
    endpoint_name: "dc-cpu",
    update_request: "{}",
    previous_config: "c1",
    requested_by: "ana",
    requested_at: "t",
    attempts: 2,
    last_error: "throttled",
  },
  autoscaling_restores: { endpoint_name: "dc-cpu", variant: "AllTraffic", autoscaling: "{}", requested_at: "t" },
};

/** A store as the console at 55aa16b left it, and how to throw it away. */
export interface StoreAt55aa16b {
  location: { sqliteFile: string } | { postgresUrl: string };
  close(): Promise<void>;
}

/** The tables as 55aa16b's migrations left them; frozen with them, whatever later migrations add. */
type TablesAt55aa16b = Record<string, Record<string, string | number | null>>;

async function fillEveryTable(store: Kysely<TablesAt55aa16b>): Promise<void> {
  for (const [table, row] of Object.entries(rowInEveryTable)) await store.insertInto(table).values(row).execute();
}

/**
 * Builds a store of `dialect` the way 55aa16b's runners did (every migration's text in version order, each
 * recorded in schema_migrations; SQLite's user_version too) and puts a row in every table.
 */
export async function createStoreAt55aa16b(dialect: StoreDialect): Promise<StoreAt55aa16b> {
  const ordered = [...migrationsAt55aa16b].sort((a, b) => a.version - b.version);
  const applied = (version: number) => ({
    version,
    applied_at: new Date(Date.UTC(2026, 11, 1, 9) + version * 1000).toISOString(),
  });
  if (dialect === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "console-store-55aa16b-"));
    const file = path.join(dir, "console.db");
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    db.pragma("foreign_keys = ON");
    db.exec(
      "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
    );
    for (const migration of ordered) {
      db.exec(migration.sql);
      const { version, applied_at } = applied(migration.version);
      db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(
        version,
        migration.name,
        applied_at,
      );
      db.pragma(`user_version = ${migration.version}`);
    }
    const store = new Kysely<TablesAt55aa16b>({ dialect: new SqliteDialect({ database: db }) });
    await fillEveryTable(store);
    await store.destroy();
    return { location: { sqliteFile: file }, close: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const database = await createTestPostgresDatabase("console_55aa16b");
  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query(
      "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
    );
    for (const migration of ordered) {
      await client.query(migration.postgres ?? migration.sql);
      const { version, applied_at } = applied(migration.version);
      await client.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)", [
        version,
        migration.name,
        applied_at,
      ]);
    }
    await client.query("COMMIT");
  } finally {
    client.release();
  }
  const store = new Kysely<TablesAt55aa16b>({ dialect: new PostgresDialect({ pool }) });
  await fillEveryTable(store);
  await store.destroy();
  return {
    location: { postgresUrl: database.url },
    close: () => database.drop(),
  };
}

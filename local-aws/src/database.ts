import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { openPrivateDataDir, privateFile } from "./private-data.ts";

export type Db = Database.Database;

interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * The local control plane's own schema (its own file, its own versions). Resources are stored as the JSON
 * documents the AWS APIs describe them with, plus the columns that lookups and listings need.
 */
const localMigrations: readonly Migration[] = [
  {
    version: 1,
    name: "local aws resources",
    sql: `
      CREATE TABLE sm_models (name TEXT PRIMARY KEY, doc TEXT NOT NULL, created_at REAL NOT NULL);
      CREATE TABLE sm_endpoint_configs (name TEXT PRIMARY KEY, doc TEXT NOT NULL, created_at REAL NOT NULL);
      CREATE TABLE sm_endpoints (
        name TEXT PRIMARY KEY, config_name TEXT NOT NULL, status TEXT NOT NULL, failure_reason TEXT,
        variants TEXT NOT NULL, created_at REAL NOT NULL, updated_at REAL NOT NULL
      );
      CREATE TABLE tags (arn TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (arn, key));
      CREATE TABLE s3_buckets (name TEXT PRIMARY KEY, created_at REAL NOT NULL);
      CREATE TABLE s3_objects (
        bucket TEXT NOT NULL, key TEXT NOT NULL, size INTEGER NOT NULL, etag TEXT NOT NULL, content_type TEXT,
        metadata TEXT NOT NULL, file TEXT NOT NULL, last_modified REAL NOT NULL, PRIMARY KEY (bucket, key)
      );
      CREATE TABLE s3_uploads (
        upload_id TEXT PRIMARY KEY, bucket TEXT NOT NULL, key TEXT NOT NULL, content_type TEXT,
        metadata TEXT NOT NULL, created_at REAL NOT NULL
      );
      CREATE TABLE ecr_images (
        repository TEXT NOT NULL, digest TEXT NOT NULL, variant TEXT NOT NULL, size INTEGER NOT NULL,
        pushed_at REAL NOT NULL, PRIMARY KEY (repository, digest)
      );
      CREATE TABLE ecr_tags (repository TEXT NOT NULL, tag TEXT NOT NULL, digest TEXT NOT NULL, PRIMARY KEY (repository, tag));
      CREATE TABLE cb_builds (
        id TEXT PRIMARY KEY, project TEXT NOT NULL, number INTEGER NOT NULL, status TEXT NOT NULL,
        current_phase TEXT NOT NULL, phases TEXT NOT NULL, environment TEXT NOT NULL, exported TEXT NOT NULL,
        started_at REAL NOT NULL, ended_at REAL
      );
      CREATE TABLE log_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT, group_name TEXT NOT NULL, stream_name TEXT NOT NULL,
        timestamp INTEGER NOT NULL, message TEXT NOT NULL
      );
      CREATE INDEX log_events_stream ON log_events (group_name, stream_name, id);
      CREATE TABLE invocation_metrics (
        endpoint TEXT NOT NULL, variant TEXT NOT NULL, timestamp INTEGER NOT NULL, model_latency_us INTEGER,
        status INTEGER NOT NULL
      );
      CREATE INDEX invocation_metrics_endpoint ON invocation_metrics (endpoint, timestamp);
      CREATE TABLE aas_targets (
        namespace TEXT NOT NULL, resource_id TEXT NOT NULL, dimension TEXT NOT NULL, doc TEXT NOT NULL,
        PRIMARY KEY (namespace, resource_id, dimension)
      );
      CREATE TABLE aas_policies (
        namespace TEXT NOT NULL, resource_id TEXT NOT NULL, dimension TEXT NOT NULL, name TEXT NOT NULL,
        doc TEXT NOT NULL, PRIMARY KEY (namespace, resource_id, dimension, name)
      );
    `,
  },
  {
    version: 2,
    name: "asynchronous inference queue and published metric datapoints",
    sql: `
      CREATE TABLE async_requests (
        id INTEGER PRIMARY KEY AUTOINCREMENT, inference_id TEXT NOT NULL, endpoint TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'expired')),
        input_location TEXT, inline_body BLOB, content_type TEXT, accept TEXT, custom_attributes TEXT,
        output_location TEXT, failure_location TEXT, ttl_seconds INTEGER NOT NULL, timeout_seconds INTEGER NOT NULL,
        received_at INTEGER NOT NULL, started_at INTEGER, finished_at INTEGER, variant TEXT, instance_id TEXT,
        failure_reason TEXT
      );
      CREATE INDEX async_requests_queue ON async_requests (endpoint, status, id);
      CREATE TABLE metric_datapoints (
        namespace TEXT NOT NULL, metric_name TEXT NOT NULL, dimensions TEXT NOT NULL, timestamp INTEGER NOT NULL,
        value REAL NOT NULL, unit TEXT
      );
      CREATE INDEX metric_datapoints_series ON metric_datapoints (namespace, metric_name, dimensions, timestamp);
    `,
  },
  {
    version: 3,
    name: "cloudwatch alarms and endpoint deployments",
    sql: `
      CREATE TABLE cw_alarms (name TEXT PRIMARY KEY, doc TEXT NOT NULL);
      ALTER TABLE sm_endpoints ADD COLUMN deployment TEXT;
    `,
  },
  {
    version: 4,
    name: "transform jobs",
    sql: `
      CREATE TABLE sm_transform_jobs (
        name TEXT PRIMARY KEY, doc TEXT NOT NULL, status TEXT NOT NULL, failure_reason TEXT,
        created_at REAL NOT NULL, started_at REAL, ended_at REAL, updated_at REAL NOT NULL
      );
      CREATE TABLE sm_transform_progress (
        job TEXT NOT NULL, input_key TEXT NOT NULL, records_done INTEGER NOT NULL, bytes_written INTEGER NOT NULL,
        completed INTEGER NOT NULL, PRIMARY KEY (job, input_key)
      );
    `,
  },
  {
    version: 5,
    name: "application auto scaling activities",
    sql: `
      CREATE TABLE aas_activities (
        activity_id TEXT PRIMARY KEY, namespace TEXT NOT NULL, resource_id TEXT NOT NULL, dimension TEXT NOT NULL,
        start_time REAL NOT NULL, doc TEXT NOT NULL
      );
      CREATE INDEX aas_activities_resource ON aas_activities (namespace, resource_id, start_time);
    `,
  },
  {
    version: 6,
    name: "codebuild build sources",
    sql: "ALTER TABLE cb_builds ADD COLUMN source TEXT;",
  },
  {
    version: 7,
    name: "cloudwatch alarm history",
    sql: `
      CREATE TABLE cw_alarm_history (
        id INTEGER PRIMARY KEY AUTOINCREMENT, alarm_name TEXT NOT NULL, at REAL NOT NULL, item_type TEXT NOT NULL,
        summary TEXT NOT NULL, data TEXT NOT NULL
      );
      CREATE INDEX cw_alarm_history_time ON cw_alarm_history (at);
    `,
  },
  {
    version: 8,
    name: "sagemaker model registry",
    sql: `
      CREATE TABLE sm_model_package_groups (
        name TEXT PRIMARY KEY COLLATE NOCASE, doc TEXT NOT NULL, created_at REAL NOT NULL, last_version INTEGER NOT NULL
      );
      CREATE TABLE sm_model_packages (
        group_name TEXT NOT NULL COLLATE NOCASE, version INTEGER NOT NULL, doc TEXT NOT NULL, created_at REAL NOT NULL,
        client_token TEXT, PRIMARY KEY (group_name, version)
      );
    `,
  },
  {
    version: 9,
    name: "sagemaker shadow variants",
    sql: "ALTER TABLE sm_endpoints ADD COLUMN shadow_variants TEXT;",
  },
];

export const LOCAL_DATABASE_FILE = "local-aws.sqlite";

/**
 * Opens the control plane's database (WAL mode; the file and its companions 0600 before SQLite opens them, since
 * SQLite gives the WAL and SHM files the database's mode) and applies, one transaction each, every migration not
 * yet recorded in `schema_migrations`. Its data directory is made its user's alone first.
 */
export function openLocalDatabase(dataDir: string): Db {
  openPrivateDataDir(dataDir);
  const file = path.join(dataDir, LOCAL_DATABASE_FILE);
  for (const entry of [file, `${file}-wal`, `${file}-shm`])
    if (entry === file || fs.existsSync(entry)) privateFile(entry);
  let db: Db;
  try {
    db = new Database(file);
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 5000");
    db.pragma("synchronous = NORMAL");
  } catch (error) {
    throw new Error(
      `The local AWS database ${file} cannot be opened (${(error as Error).message}). Move it away to start empty.`,
    );
  }
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
  );
  const applied = new Set(
    (db.prepare("SELECT version FROM schema_migrations").all() as { version: number }[]).map((row) => row.version),
  );
  const record = db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)");
  for (const migration of localMigrations) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.version, migration.name, new Date().toISOString());
      db.pragma(`user_version = ${migration.version}`);
    })();
  }
  return db;
}

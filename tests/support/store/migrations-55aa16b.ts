/**
 * The console's migrations as commit 55aa16b shipped them, frozen: the last schema its own runners
 * (server/store/database.ts's migrate, postgres-store.ts's migratePostgres) applied before Kysely's Migrator took
 * over. Only the upgrade test reads them, to build a store as that console left it. Never edit.
 */
export interface MigrationAt55aa16b {
  version: number;
  name: string;
  /** The step in SQLite, and in PostgreSQL too unless `postgres` is given. */
  sql: string;
  /**
   * The same step in PostgreSQL, where SQLite's text does not mean the same there: REAL is single precision in
   * PostgreSQL (DOUBLE PRECISION keeps SQLite's 8-byte floats), AUTOINCREMENT is an identity column, milliseconds
   * since 1970 need BIGINT, and WITHOUT ROWID has no equivalent (every PostgreSQL table is a heap).
   */
  postgres?: string;
}

/**
 * The console's schema, oldest first. Never edit a migration that has shipped: add a new one.
 * Version ranges by area keep parallel work apart: 1-9 core, 10-29 evaluation, 30-49 auth and audit,
 * 50-69 endpoints and invocations.
 */
export const migrationsAt55aa16b: readonly MigrationAt55aa16b[] = [
  {
    version: 1,
    name: "settings",
    sql: "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at TEXT NOT NULL);",
  },
  {
    version: 2,
    name: "leases",
    // Background work a console replica holds for a while (an evaluation run, a promotion, the drift publisher):
    // whoever holds an unexpired lease does the work; another replica takes it over once it expires.
    sql: `CREATE TABLE leases (
      name TEXT PRIMARY KEY,
      holder TEXT NOT NULL,
      expires_at_ms INTEGER NOT NULL,
      acquired_at TEXT NOT NULL
    );
    CREATE INDEX leases_holder ON leases (holder);`,
    postgres: `CREATE TABLE leases (
      name TEXT PRIMARY KEY,
      holder TEXT NOT NULL,
      expires_at_ms BIGINT NOT NULL,
      acquired_at TEXT NOT NULL
    );
    CREATE INDEX leases_holder ON leases (holder);`,
  },
  {
    version: 10,
    name: "evaluation datasets",
    sql: `CREATE TABLE evaluation_datasets (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      source TEXT NOT NULL CHECK (source IN ('upload', 'sample')),
      format TEXT NOT NULL,
      item_count INTEGER NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE TABLE evaluation_dataset_items (
      dataset_id TEXT NOT NULL REFERENCES evaluation_datasets (id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      item_id TEXT NOT NULL,
      decision TEXT NOT NULL,
      answer TEXT NOT NULL,
      category TEXT,
      tier TEXT,
      PRIMARY KEY (dataset_id, position),
      UNIQUE (dataset_id, item_id)
    );`,
  },
  {
    version: 11,
    name: "evaluation runs",
    sql: `CREATE TABLE evaluation_runs (
      id TEXT PRIMARY KEY,
      dataset_id TEXT NOT NULL REFERENCES evaluation_datasets (id),
      status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'cancelled', 'failed')),
      concurrency INTEGER NOT NULL,
      target_accuracy REAL NOT NULL,
      created_at TEXT NOT NULL,
      resumed_at TEXT NOT NULL,
      finished_at TEXT,
      failure TEXT,
      owner_pid INTEGER,
      heartbeat_at TEXT
    );
    CREATE TABLE evaluation_targets (
      run_id TEXT NOT NULL REFERENCES evaluation_runs (id) ON DELETE CASCADE,
      slot INTEGER NOT NULL CHECK (slot IN (0, 1)),
      endpoint_name TEXT NOT NULL,
      PRIMARY KEY (run_id, slot)
    );
    CREATE TABLE evaluation_results (
      run_id TEXT NOT NULL REFERENCES evaluation_runs (id) ON DELETE CASCADE,
      slot INTEGER NOT NULL,
      position INTEGER NOT NULL,
      item_id TEXT NOT NULL,
      option_ids TEXT,
      probabilities TEXT,
      logits TEXT,
      chosen TEXT,
      latency_ms REAL NOT NULL,
      adapter_ms REAL,
      attempts INTEGER NOT NULL,
      error_kind TEXT,
      error_message TEXT,
      finished_at TEXT NOT NULL,
      PRIMARY KEY (run_id, slot, position)
    );`,
    postgres: `CREATE TABLE evaluation_runs (
      id TEXT PRIMARY KEY,
      dataset_id TEXT NOT NULL REFERENCES evaluation_datasets (id),
      status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'cancelled', 'failed')),
      concurrency INTEGER NOT NULL,
      target_accuracy DOUBLE PRECISION NOT NULL,
      created_at TEXT NOT NULL,
      resumed_at TEXT NOT NULL,
      finished_at TEXT,
      failure TEXT,
      owner_pid INTEGER,
      heartbeat_at TEXT
    );
    CREATE TABLE evaluation_targets (
      run_id TEXT NOT NULL REFERENCES evaluation_runs (id) ON DELETE CASCADE,
      slot INTEGER NOT NULL CHECK (slot IN (0, 1)),
      endpoint_name TEXT NOT NULL,
      PRIMARY KEY (run_id, slot)
    );
    CREATE TABLE evaluation_results (
      run_id TEXT NOT NULL REFERENCES evaluation_runs (id) ON DELETE CASCADE,
      slot INTEGER NOT NULL,
      position INTEGER NOT NULL,
      item_id TEXT NOT NULL,
      option_ids TEXT,
      probabilities TEXT,
      logits TEXT,
      chosen TEXT,
      latency_ms DOUBLE PRECISION NOT NULL,
      adapter_ms DOUBLE PRECISION,
      attempts INTEGER NOT NULL,
      error_kind TEXT,
      error_message TEXT,
      finished_at TEXT NOT NULL,
      PRIMARY KEY (run_id, slot, position)
    );`,
  },
  {
    version: 12,
    name: "evaluation target configuration",
    sql: "ALTER TABLE evaluation_targets ADD COLUMN configuration TEXT;",
  },
  {
    version: 13,
    name: "evaluation batch jobs",
    sql: `CREATE TABLE evaluation_batch_jobs (
      run_id TEXT PRIMARY KEY REFERENCES evaluation_runs (id) ON DELETE CASCADE,
      job_name TEXT NOT NULL UNIQUE,
      model_name TEXT NOT NULL,
      instance_type TEXT NOT NULL,
      instance_count INTEGER NOT NULL,
      max_concurrent_transforms INTEGER,
      input_s3_uri TEXT NOT NULL,
      output_s3_uri TEXT NOT NULL
    );`,
  },
  {
    version: 14,
    name: "evaluation runs leased",
    // Which process works a run is its lease now (leases, migration 2), not a pid and heartbeat on the run.
    sql: `ALTER TABLE evaluation_runs DROP COLUMN owner_pid;
    ALTER TABLE evaluation_runs DROP COLUMN heartbeat_at;`,
  },
  {
    version: 15,
    name: "one copy of each sample",
    // Replicas loading a built-in sample at once: the second insert fails here and reads the first's copy.
    sql: "CREATE UNIQUE INDEX evaluation_datasets_sample ON evaluation_datasets (name) WHERE source = 'sample';",
  },
  {
    version: 30,
    name: "console users",
    sql: `CREATE TABLE users (
      name TEXT PRIMARY KEY,
      role TEXT NOT NULL CHECK (role IN ('viewer', 'operator')),
      password_hash TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );`,
  },
  {
    version: 31,
    name: "audit log",
    sql: `CREATE TABLE audit_log (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      at TEXT NOT NULL,
      actor TEXT NOT NULL,
      action TEXT NOT NULL,
      target TEXT NOT NULL,
      aws_request_id TEXT,
      result TEXT NOT NULL CHECK (result IN ('ok', 'error', 'denied')),
      detail TEXT
    );
    CREATE INDEX audit_log_at ON audit_log (at DESC);`,
    postgres: `CREATE TABLE audit_log (
      id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
      at TEXT NOT NULL,
      actor TEXT NOT NULL,
      action TEXT NOT NULL,
      target TEXT NOT NULL,
      aws_request_id TEXT,
      result TEXT NOT NULL CHECK (result IN ('ok', 'error', 'denied')),
      detail TEXT
    );
    CREATE INDEX audit_log_at ON audit_log (at DESC);`,
  },
  {
    version: 32,
    name: "revoked sessions",
    sql: "CREATE TABLE revoked_sessions (jti TEXT PRIMARY KEY, expires_at TEXT NOT NULL);",
  },
  {
    version: 33,
    name: "sign-in buckets",
    // The sign-in throttle's token buckets (auth/rate-limit.ts), here so that every console replica spends from the
    // same ones: a guesser gains nothing from being spread over replicas by the load balancer.
    sql: `CREATE TABLE sign_in_buckets (
      bucket TEXT PRIMARY KEY,
      tokens REAL NOT NULL,
      at_ms INTEGER NOT NULL
    );
    CREATE INDEX sign_in_buckets_age ON sign_in_buckets (at_ms);`,
    postgres: `CREATE TABLE sign_in_buckets (
      bucket TEXT PRIMARY KEY,
      tokens DOUBLE PRECISION NOT NULL,
      at_ms BIGINT NOT NULL
    );
    CREATE INDEX sign_in_buckets_age ON sign_in_buckets (at_ms);`,
  },
  {
    version: 50,
    name: "console invocations",
    sql: `CREATE TABLE console_invocations (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      endpoint_name TEXT NOT NULL,
      at TEXT NOT NULL,
      stream INTEGER NOT NULL CHECK (stream IN (0, 1)),
      status INTEGER NOT NULL,
      latency_ms REAL NOT NULL,
      retries INTEGER NOT NULL,
      request_bytes INTEGER NOT NULL,
      request_preview TEXT NOT NULL,
      error TEXT,
      user_name TEXT
    );
    CREATE INDEX console_invocations_endpoint ON console_invocations (endpoint_name, id DESC);`,
    postgres: `CREATE TABLE console_invocations (
      id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
      endpoint_name TEXT NOT NULL,
      at TEXT NOT NULL,
      stream INTEGER NOT NULL CHECK (stream IN (0, 1)),
      status INTEGER NOT NULL,
      latency_ms DOUBLE PRECISION NOT NULL,
      retries INTEGER NOT NULL,
      request_bytes INTEGER NOT NULL,
      request_preview TEXT NOT NULL,
      error TEXT,
      user_name TEXT
    );
    CREATE INDEX console_invocations_endpoint ON console_invocations (endpoint_name, id DESC);`,
  },
  {
    version: 51,
    name: "endpoint summary cache",
    sql: `CREATE TABLE endpoint_summaries (
      endpoint_name TEXT PRIMARY KEY,
      listing_key TEXT NOT NULL,
      summary TEXT NOT NULL,
      stored_at TEXT NOT NULL
    );`,
  },
  {
    version: 52,
    name: "asynchronous requests",
    sql: `CREATE TABLE async_requests (
      inference_id TEXT PRIMARY KEY,
      endpoint_name TEXT NOT NULL,
      input_location TEXT NOT NULL,
      output_location TEXT NOT NULL,
      failure_location TEXT,
      sender_kind TEXT NOT NULL CHECK (sender_kind IN ('playground', 'evaluation')),
      user_name TEXT,
      run_id TEXT,
      slot INTEGER,
      position INTEGER,
      item_id TEXT,
      submitted_at TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('queued', 'done', 'failed')),
      checked_at TEXT,
      accepted_at TEXT,
      CHECK ((sender_kind = 'evaluation') = (run_id IS NOT NULL AND slot IS NOT NULL AND position IS NOT NULL))
    );
    CREATE INDEX async_requests_endpoint ON async_requests (endpoint_name, submitted_at DESC);
    CREATE INDEX async_requests_run_item ON async_requests (run_id, slot, position);`,
  },
  {
    version: 53,
    name: "decision monitoring",
    sql: `CREATE TABLE capture_objects (
      endpoint_name TEXT NOT NULL,
      object_key TEXT NOT NULL,
      variant TEXT NOT NULL,
      records INTEGER NOT NULL,
      decisions INTEGER NOT NULL,
      unreadable INTEGER NOT NULL,
      read_at TEXT NOT NULL,
      PRIMARY KEY (endpoint_name, object_key)
    );
    CREATE TABLE decision_kinds (
      endpoint_name TEXT NOT NULL,
      kind TEXT NOT NULL,
      question TEXT NOT NULL,
      options TEXT NOT NULL,
      PRIMARY KEY (endpoint_name, kind)
    );
    CREATE TABLE decision_rollups (
      endpoint_name TEXT NOT NULL,
      variant TEXT NOT NULL,
      minute INTEGER NOT NULL,
      kind TEXT NOT NULL,
      chosen TEXT NOT NULL,
      decisions INTEGER NOT NULL,
      top_bins TEXT NOT NULL,
      latency_bins TEXT NOT NULL,
      latency_sum_ms REAL NOT NULL,
      latency_count INTEGER NOT NULL,
      PRIMARY KEY (endpoint_name, minute, variant, kind, chosen)
    ) WITHOUT ROWID;`,
    postgres: `CREATE TABLE capture_objects (
      endpoint_name TEXT NOT NULL,
      object_key TEXT NOT NULL,
      variant TEXT NOT NULL,
      records INTEGER NOT NULL,
      decisions INTEGER NOT NULL,
      unreadable INTEGER NOT NULL,
      read_at TEXT NOT NULL,
      PRIMARY KEY (endpoint_name, object_key)
    );
    CREATE TABLE decision_kinds (
      endpoint_name TEXT NOT NULL,
      kind TEXT NOT NULL,
      question TEXT NOT NULL,
      options TEXT NOT NULL,
      PRIMARY KEY (endpoint_name, kind)
    );
    CREATE TABLE decision_rollups (
      endpoint_name TEXT NOT NULL,
      variant TEXT NOT NULL,
      minute BIGINT NOT NULL,
      kind TEXT NOT NULL,
      chosen TEXT NOT NULL,
      decisions BIGINT NOT NULL,
      top_bins TEXT NOT NULL,
      latency_bins TEXT NOT NULL,
      latency_sum_ms DOUBLE PRECISION NOT NULL,
      latency_count BIGINT NOT NULL,
      PRIMARY KEY (endpoint_name, minute, variant, kind, chosen)
    );`,
  },
  {
    version: 54,
    name: "captured decisions",
    sql: `CREATE TABLE captured_decisions (
      endpoint_name TEXT NOT NULL,
      object_key TEXT NOT NULL,
      line INTEGER NOT NULL,
      item INTEGER NOT NULL,
      variant TEXT NOT NULL,
      at_ms INTEGER NOT NULL,
      kind TEXT NOT NULL,
      input_key TEXT NOT NULL,
      chosen TEXT NOT NULL,
      top_probability REAL NOT NULL,
      probabilities TEXT NOT NULL,
      latency_ms REAL,
      PRIMARY KEY (endpoint_name, object_key, line, item)
    ) WITHOUT ROWID;
    CREATE INDEX captured_decisions_at ON captured_decisions (endpoint_name, variant, at_ms);
    CREATE INDEX captured_decisions_age ON captured_decisions (endpoint_name, at_ms);`,
    postgres: `CREATE TABLE captured_decisions (
      endpoint_name TEXT NOT NULL,
      object_key TEXT NOT NULL,
      line INTEGER NOT NULL,
      item INTEGER NOT NULL,
      variant TEXT NOT NULL,
      at_ms BIGINT NOT NULL,
      kind TEXT NOT NULL,
      input_key TEXT NOT NULL,
      chosen TEXT NOT NULL,
      top_probability DOUBLE PRECISION NOT NULL,
      probabilities TEXT NOT NULL,
      latency_ms DOUBLE PRECISION,
      PRIMARY KEY (endpoint_name, object_key, line, item)
    );
    CREATE INDEX captured_decisions_at ON captured_decisions (endpoint_name, variant, at_ms);
    CREATE INDEX captured_decisions_age ON captured_decisions (endpoint_name, at_ms);`,
  },
  {
    version: 55,
    name: "shadow tests",
    sql: `CREATE TABLE shadow_tests (
      endpoint_name TEXT PRIMARY KEY,
      shadow_config TEXT NOT NULL,
      previous_config TEXT NOT NULL,
      change TEXT NOT NULL,
      sampling_percentage INTEGER NOT NULL,
      started_at TEXT NOT NULL,
      started_by TEXT NOT NULL
    );`,
  },
  {
    version: 56,
    name: "decision reviews",
    // One label per captured decision (its key in captured_decisions): an option id, or NULL when skipped. The
    // decision as sent and its scores are copied in, so labels outlive the 7 days single decisions are kept.
    sql: `CREATE TABLE decision_reviews (
      endpoint_name TEXT NOT NULL,
      object_key TEXT NOT NULL,
      line INTEGER NOT NULL,
      item INTEGER NOT NULL,
      kind TEXT NOT NULL,
      label TEXT,
      variant TEXT NOT NULL,
      at_ms INTEGER NOT NULL,
      chosen TEXT NOT NULL,
      probabilities TEXT NOT NULL,
      decision TEXT NOT NULL,
      labelled_by TEXT NOT NULL,
      labelled_at TEXT NOT NULL,
      PRIMARY KEY (endpoint_name, object_key, line, item)
    ) WITHOUT ROWID;
    CREATE INDEX decision_reviews_kind ON decision_reviews (endpoint_name, kind, at_ms);
    CREATE INDEX captured_decisions_confidence ON captured_decisions (endpoint_name, kind, top_probability);`,
    postgres: `CREATE TABLE decision_reviews (
      endpoint_name TEXT NOT NULL,
      object_key TEXT NOT NULL,
      line INTEGER NOT NULL,
      item INTEGER NOT NULL,
      kind TEXT NOT NULL,
      label TEXT,
      variant TEXT NOT NULL,
      at_ms BIGINT NOT NULL,
      chosen TEXT NOT NULL,
      probabilities TEXT NOT NULL,
      decision TEXT NOT NULL,
      labelled_by TEXT NOT NULL,
      labelled_at TEXT NOT NULL,
      PRIMARY KEY (endpoint_name, object_key, line, item)
    );
    CREATE INDEX decision_reviews_kind ON decision_reviews (endpoint_name, kind, at_ms);
    CREATE INDEX captured_decisions_confidence ON captured_decisions (endpoint_name, kind, top_probability);`,
  },
  {
    version: 57,
    name: "drift baselines",
    sql: `CREATE TABLE drift_baselines (
      endpoint_name TEXT NOT NULL,
      kind TEXT NOT NULL,
      question TEXT NOT NULL,
      options TEXT NOT NULL,
      option_counts TEXT NOT NULL,
      top_bins TEXT NOT NULL,
      decisions INTEGER NOT NULL,
      source TEXT NOT NULL,
      set_by TEXT NOT NULL,
      set_at TEXT NOT NULL,
      PRIMARY KEY (endpoint_name, kind)
    );`,
  },
  {
    version: 58,
    name: "endpoint thresholds",
    // The decision threshold a team set for an endpoint: its Monitoring view's fallback rate is read against it.
    sql: `CREATE TABLE endpoint_thresholds (
      endpoint_name TEXT PRIMARY KEY,
      threshold REAL NOT NULL,
      set_by TEXT NOT NULL,
      set_at TEXT NOT NULL
    );`,
    postgres: `CREATE TABLE endpoint_thresholds (
      endpoint_name TEXT PRIMARY KEY,
      threshold DOUBLE PRECISION NOT NULL,
      set_by TEXT NOT NULL,
      set_at TEXT NOT NULL
    );`,
  },
  {
    version: 59,
    name: "shadow promotions",
    // A promoted shadow test waiting for its endpoint to be InService again on the configuration it went back to:
    // the update to start then, as the console's UpdateRequest, and who asked for it.
    sql: `CREATE TABLE shadow_promotions (
      endpoint_name TEXT PRIMARY KEY,
      update_request TEXT NOT NULL,
      previous_config TEXT NOT NULL,
      requested_by TEXT NOT NULL,
      requested_at TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      last_error TEXT
    );`,
  },
  {
    version: 60,
    name: "autoscaling restores",
    // A variant whose autoscaling an update had to deregister (it changed the instance type): registered again, as
    // stored here, once the endpoint is InService again, by whichever console replica holds the restore's lease.
    sql: `CREATE TABLE autoscaling_restores (
      endpoint_name TEXT PRIMARY KEY,
      variant TEXT NOT NULL,
      autoscaling TEXT NOT NULL,
      requested_at TEXT NOT NULL
    );`,
  },
];

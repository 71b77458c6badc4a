import { sql } from "kysely";
import { fillLabelFigures } from "./label-figures-fill.ts";
import { addIdentityColumn, keyedByPrimaryKey, type MigrationDatabase } from "./migration-dialects.ts";

/**
 * One step of the console's schema, written once with Kysely's schema builder, which renders it for SQLite and for
 * PostgreSQL. Column types are the ones both read alike: `text`, `integer`, `bigint` (milliseconds since 1970,
 * counts that may pass 2^31) and `double precision` (SQLite's 8-byte REAL; PostgreSQL's `real` is 4 bytes).
 */
export interface Migration {
  version: number;
  name: string;
  up(db: MigrationDatabase): Promise<void>;
}

/**
 * The console's schema, oldest first. Never edit a migration that has shipped: add a new one (server/store/README.md).
 * Version ranges by area keep parallel work apart: 1-9 core, 10-29 evaluation, 30-49 auth and audit,
 * 50-69 endpoints and invocations.
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: "settings",
    up: async (db) => {
      await db.schema
        .createTable("settings")
        .addColumn("key", "text", (col) => col.primaryKey())
        .addColumn("value", "text", (col) => col.notNull())
        .addColumn("updated_at", "text", (col) => col.notNull())
        .execute();
    },
  },
  {
    version: 2,
    name: "leases",
    // Background work a console replica holds for a while (an evaluation run, a promotion, the drift publisher):
    // whoever holds an unexpired lease does the work; another replica takes it over once it expires.
    up: async (db) => {
      await db.schema
        .createTable("leases")
        .addColumn("name", "text", (col) => col.primaryKey())
        .addColumn("holder", "text", (col) => col.notNull())
        .addColumn("expires_at_ms", "bigint", (col) => col.notNull())
        .addColumn("acquired_at", "text", (col) => col.notNull())
        .execute();
      await db.schema.createIndex("leases_holder").on("leases").column("holder").execute();
    },
  },
  {
    version: 10,
    name: "evaluation datasets",
    up: async (db) => {
      await db.schema
        .createTable("evaluation_datasets")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("name", "text", (col) => col.notNull())
        .addColumn("source", "text", (col) => col.notNull().check(sql`source IN ('upload', 'sample')`))
        .addColumn("format", "text", (col) => col.notNull())
        .addColumn("item_count", "integer", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .execute();
      await db.schema
        .createTable("evaluation_dataset_items")
        .addColumn("dataset_id", "text", (col) =>
          col.notNull().references("evaluation_datasets.id").onDelete("cascade"),
        )
        .addColumn("position", "integer", (col) => col.notNull())
        .addColumn("item_id", "text", (col) => col.notNull())
        .addColumn("decision", "text", (col) => col.notNull())
        .addColumn("answer", "text", (col) => col.notNull())
        .addColumn("category", "text")
        .addColumn("tier", "text")
        .addPrimaryKeyConstraint("evaluation_dataset_items_pkey", ["dataset_id", "position"])
        .addUniqueConstraint("evaluation_dataset_items_dataset_id_item_id_key", ["dataset_id", "item_id"])
        .execute();
    },
  },
  {
    version: 11,
    name: "evaluation runs",
    up: async (db) => {
      await db.schema
        .createTable("evaluation_runs")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("dataset_id", "text", (col) => col.notNull().references("evaluation_datasets.id"))
        .addColumn("status", "text", (col) =>
          col.notNull().check(sql`status IN ('running', 'completed', 'cancelled', 'failed')`),
        )
        .addColumn("concurrency", "integer", (col) => col.notNull())
        .addColumn("target_accuracy", "double precision", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("resumed_at", "text", (col) => col.notNull())
        .addColumn("finished_at", "text")
        .addColumn("failure", "text")
        .addColumn("owner_pid", "integer")
        .addColumn("heartbeat_at", "text")
        .execute();
      await db.schema
        .createTable("evaluation_targets")
        .addColumn("run_id", "text", (col) => col.notNull().references("evaluation_runs.id").onDelete("cascade"))
        .addColumn("slot", "integer", (col) => col.notNull().check(sql`slot IN (0, 1)`))
        .addColumn("endpoint_name", "text", (col) => col.notNull())
        .addPrimaryKeyConstraint("evaluation_targets_pkey", ["run_id", "slot"])
        .execute();
      await db.schema
        .createTable("evaluation_results")
        .addColumn("run_id", "text", (col) => col.notNull().references("evaluation_runs.id").onDelete("cascade"))
        .addColumn("slot", "integer", (col) => col.notNull())
        .addColumn("position", "integer", (col) => col.notNull())
        .addColumn("item_id", "text", (col) => col.notNull())
        .addColumn("option_ids", "text")
        .addColumn("probabilities", "text")
        .addColumn("logits", "text")
        .addColumn("chosen", "text")
        .addColumn("latency_ms", "double precision", (col) => col.notNull())
        .addColumn("adapter_ms", "double precision")
        .addColumn("attempts", "integer", (col) => col.notNull())
        .addColumn("error_kind", "text")
        .addColumn("error_message", "text")
        .addColumn("finished_at", "text", (col) => col.notNull())
        .addPrimaryKeyConstraint("evaluation_results_pkey", ["run_id", "slot", "position"])
        .execute();
    },
  },
  {
    version: 12,
    name: "evaluation target configuration",
    up: async (db) => {
      await db.schema.alterTable("evaluation_targets").addColumn("configuration", "text").execute();
    },
  },
  {
    version: 13,
    name: "evaluation batch jobs",
    up: async (db) => {
      await db.schema
        .createTable("evaluation_batch_jobs")
        .addColumn("run_id", "text", (col) => col.primaryKey().references("evaluation_runs.id").onDelete("cascade"))
        .addColumn("job_name", "text", (col) => col.notNull().unique())
        .addColumn("model_name", "text", (col) => col.notNull())
        .addColumn("instance_type", "text", (col) => col.notNull())
        .addColumn("instance_count", "integer", (col) => col.notNull())
        .addColumn("max_concurrent_transforms", "integer")
        .addColumn("input_s3_uri", "text", (col) => col.notNull())
        .addColumn("output_s3_uri", "text", (col) => col.notNull())
        .execute();
    },
  },
  {
    version: 14,
    name: "evaluation runs leased",
    // Which process works a run is its lease now (leases, migration 2), not a pid and heartbeat on the run.
    up: async (db) => {
      await db.schema.alterTable("evaluation_runs").dropColumn("owner_pid").execute();
      await db.schema.alterTable("evaluation_runs").dropColumn("heartbeat_at").execute();
    },
  },
  {
    version: 15,
    name: "one copy of each sample",
    // Replicas loading a built-in sample at once: the second insert fails here and reads the first's copy.
    up: async (db) => {
      await db.schema
        .createIndex("evaluation_datasets_sample")
        .on("evaluation_datasets")
        .column("name")
        .unique()
        .where(sql.ref("source"), "=", "sample")
        .execute();
    },
  },
  {
    version: 30,
    name: "console users",
    up: async (db) => {
      await db.schema
        .createTable("users")
        .addColumn("name", "text", (col) => col.primaryKey())
        .addColumn("role", "text", (col) => col.notNull().check(sql`role IN ('viewer', 'operator')`))
        .addColumn("password_hash", "text", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("updated_at", "text", (col) => col.notNull())
        .execute();
    },
  },
  {
    version: 31,
    name: "audit log",
    up: async (db) => {
      await addIdentityColumn(db, db.schema.createTable("audit_log"), "id")
        .addColumn("at", "text", (col) => col.notNull())
        .addColumn("actor", "text", (col) => col.notNull())
        .addColumn("action", "text", (col) => col.notNull())
        .addColumn("target", "text", (col) => col.notNull())
        .addColumn("aws_request_id", "text")
        .addColumn("result", "text", (col) => col.notNull().check(sql`result IN ('ok', 'error', 'denied')`))
        .addColumn("detail", "text")
        .execute();
      await db.schema.createIndex("audit_log_at").on("audit_log").column("at desc").execute();
    },
  },
  {
    version: 32,
    name: "revoked sessions",
    up: async (db) => {
      await db.schema
        .createTable("revoked_sessions")
        .addColumn("jti", "text", (col) => col.primaryKey())
        .addColumn("expires_at", "text", (col) => col.notNull())
        .execute();
    },
  },
  {
    version: 33,
    name: "sign-in buckets",
    // The sign-in throttle's token buckets (auth/rate-limit.ts), here so that every console replica spends from the
    // same ones: a guesser gains nothing from being spread over replicas by the load balancer.
    up: async (db) => {
      await db.schema
        .createTable("sign_in_buckets")
        .addColumn("bucket", "text", (col) => col.primaryKey())
        .addColumn("tokens", "double precision", (col) => col.notNull())
        .addColumn("at_ms", "bigint", (col) => col.notNull())
        .execute();
      await db.schema.createIndex("sign_in_buckets_age").on("sign_in_buckets").column("at_ms").execute();
    },
  },
  {
    version: 50,
    name: "console invocations",
    up: async (db) => {
      await addIdentityColumn(db, db.schema.createTable("console_invocations"), "id")
        .addColumn("endpoint_name", "text", (col) => col.notNull())
        .addColumn("at", "text", (col) => col.notNull())
        .addColumn("stream", "integer", (col) => col.notNull().check(sql`stream IN (0, 1)`))
        .addColumn("status", "integer", (col) => col.notNull())
        .addColumn("latency_ms", "double precision", (col) => col.notNull())
        .addColumn("retries", "integer", (col) => col.notNull())
        .addColumn("request_bytes", "integer", (col) => col.notNull())
        .addColumn("request_preview", "text", (col) => col.notNull())
        .addColumn("error", "text")
        .addColumn("user_name", "text")
        .execute();
      await db.schema
        .createIndex("console_invocations_endpoint")
        .on("console_invocations")
        .columns(["endpoint_name", "id desc"])
        .execute();
    },
  },
  {
    version: 51,
    name: "endpoint summary cache",
    up: async (db) => {
      await db.schema
        .createTable("endpoint_summaries")
        .addColumn("endpoint_name", "text", (col) => col.primaryKey())
        .addColumn("listing_key", "text", (col) => col.notNull())
        .addColumn("summary", "text", (col) => col.notNull())
        .addColumn("stored_at", "text", (col) => col.notNull())
        .execute();
    },
  },
  {
    version: 52,
    name: "asynchronous requests",
    up: async (db) => {
      await db.schema
        .createTable("async_requests")
        .addColumn("inference_id", "text", (col) => col.primaryKey())
        .addColumn("endpoint_name", "text", (col) => col.notNull())
        .addColumn("input_location", "text", (col) => col.notNull())
        .addColumn("output_location", "text", (col) => col.notNull())
        .addColumn("failure_location", "text")
        .addColumn("sender_kind", "text", (col) =>
          col.notNull().check(sql`sender_kind IN ('playground', 'evaluation')`),
        )
        .addColumn("user_name", "text")
        .addColumn("run_id", "text")
        .addColumn("slot", "integer")
        .addColumn("position", "integer")
        .addColumn("item_id", "text")
        .addColumn("submitted_at", "text", (col) => col.notNull())
        .addColumn("state", "text", (col) => col.notNull().check(sql`state IN ('queued', 'done', 'failed')`))
        .addColumn("checked_at", "text")
        .addColumn("accepted_at", "text")
        .addCheckConstraint(
          "async_requests_check",
          sql`(sender_kind = 'evaluation') = (run_id IS NOT NULL AND slot IS NOT NULL AND position IS NOT NULL)`,
        )
        .execute();
      await db.schema
        .createIndex("async_requests_endpoint")
        .on("async_requests")
        .columns(["endpoint_name", "submitted_at desc"])
        .execute();
      await db.schema
        .createIndex("async_requests_run_item")
        .on("async_requests")
        .columns(["run_id", "slot", "position"])
        .execute();
    },
  },
  {
    version: 53,
    name: "decision monitoring",
    up: async (db) => {
      await db.schema
        .createTable("capture_objects")
        .addColumn("endpoint_name", "text", (col) => col.notNull())
        .addColumn("object_key", "text", (col) => col.notNull())
        .addColumn("variant", "text", (col) => col.notNull())
        .addColumn("records", "integer", (col) => col.notNull())
        .addColumn("decisions", "integer", (col) => col.notNull())
        .addColumn("unreadable", "integer", (col) => col.notNull())
        .addColumn("read_at", "text", (col) => col.notNull())
        .addPrimaryKeyConstraint("capture_objects_pkey", ["endpoint_name", "object_key"])
        .execute();
      await db.schema
        .createTable("decision_kinds")
        .addColumn("endpoint_name", "text", (col) => col.notNull())
        .addColumn("kind", "text", (col) => col.notNull())
        .addColumn("question", "text", (col) => col.notNull())
        .addColumn("options", "text", (col) => col.notNull())
        .addPrimaryKeyConstraint("decision_kinds_pkey", ["endpoint_name", "kind"])
        .execute();
      await db.schema
        .createTable("decision_rollups")
        .addColumn("endpoint_name", "text", (col) => col.notNull())
        .addColumn("variant", "text", (col) => col.notNull())
        .addColumn("minute", "bigint", (col) => col.notNull())
        .addColumn("kind", "text", (col) => col.notNull())
        .addColumn("chosen", "text", (col) => col.notNull())
        .addColumn("decisions", "bigint", (col) => col.notNull())
        .addColumn("top_bins", "text", (col) => col.notNull())
        .addColumn("latency_bins", "text", (col) => col.notNull())
        .addColumn("latency_sum_ms", "double precision", (col) => col.notNull())
        .addColumn("latency_count", "bigint", (col) => col.notNull())
        .addPrimaryKeyConstraint("decision_rollups_pkey", ["endpoint_name", "minute", "variant", "kind", "chosen"])
        .$call(keyedByPrimaryKey(db))
        .execute();
    },
  },
  {
    version: 54,
    name: "captured decisions",
    up: async (db) => {
      await db.schema
        .createTable("captured_decisions")
        .addColumn("endpoint_name", "text", (col) => col.notNull())
        .addColumn("object_key", "text", (col) => col.notNull())
        .addColumn("line", "integer", (col) => col.notNull())
        .addColumn("item", "integer", (col) => col.notNull())
        .addColumn("variant", "text", (col) => col.notNull())
        .addColumn("at_ms", "bigint", (col) => col.notNull())
        .addColumn("kind", "text", (col) => col.notNull())
        .addColumn("input_key", "text", (col) => col.notNull())
        .addColumn("chosen", "text", (col) => col.notNull())
        .addColumn("top_probability", "double precision", (col) => col.notNull())
        .addColumn("probabilities", "text", (col) => col.notNull())
        .addColumn("latency_ms", "double precision")
        .addPrimaryKeyConstraint("captured_decisions_pkey", ["endpoint_name", "object_key", "line", "item"])
        .$call(keyedByPrimaryKey(db))
        .execute();
      await db.schema
        .createIndex("captured_decisions_at")
        .on("captured_decisions")
        .columns(["endpoint_name", "variant", "at_ms"])
        .execute();
      await db.schema
        .createIndex("captured_decisions_age")
        .on("captured_decisions")
        .columns(["endpoint_name", "at_ms"])
        .execute();
    },
  },
  {
    version: 55,
    name: "shadow tests",
    up: async (db) => {
      await db.schema
        .createTable("shadow_tests")
        .addColumn("endpoint_name", "text", (col) => col.primaryKey())
        .addColumn("shadow_config", "text", (col) => col.notNull())
        .addColumn("previous_config", "text", (col) => col.notNull())
        .addColumn("change", "text", (col) => col.notNull())
        .addColumn("sampling_percentage", "integer", (col) => col.notNull())
        .addColumn("started_at", "text", (col) => col.notNull())
        .addColumn("started_by", "text", (col) => col.notNull())
        .execute();
    },
  },
  {
    version: 56,
    name: "decision reviews",
    // One label per captured decision (its key in captured_decisions): an option id, or NULL when skipped. The
    // decision as sent and its scores are copied in, so labels outlive the 7 days single decisions are kept.
    up: async (db) => {
      await db.schema
        .createTable("decision_reviews")
        .addColumn("endpoint_name", "text", (col) => col.notNull())
        .addColumn("object_key", "text", (col) => col.notNull())
        .addColumn("line", "integer", (col) => col.notNull())
        .addColumn("item", "integer", (col) => col.notNull())
        .addColumn("kind", "text", (col) => col.notNull())
        .addColumn("label", "text")
        .addColumn("variant", "text", (col) => col.notNull())
        .addColumn("at_ms", "bigint", (col) => col.notNull())
        .addColumn("chosen", "text", (col) => col.notNull())
        .addColumn("probabilities", "text", (col) => col.notNull())
        .addColumn("decision", "text", (col) => col.notNull())
        .addColumn("labelled_by", "text", (col) => col.notNull())
        .addColumn("labelled_at", "text", (col) => col.notNull())
        .addPrimaryKeyConstraint("decision_reviews_pkey", ["endpoint_name", "object_key", "line", "item"])
        .$call(keyedByPrimaryKey(db))
        .execute();
      await db.schema
        .createIndex("decision_reviews_kind")
        .on("decision_reviews")
        .columns(["endpoint_name", "kind", "at_ms"])
        .execute();
      await db.schema
        .createIndex("captured_decisions_confidence")
        .on("captured_decisions")
        .columns(["endpoint_name", "kind", "top_probability"])
        .execute();
    },
  },
  {
    version: 57,
    name: "drift baselines",
    up: async (db) => {
      await db.schema
        .createTable("drift_baselines")
        .addColumn("endpoint_name", "text", (col) => col.notNull())
        .addColumn("kind", "text", (col) => col.notNull())
        .addColumn("question", "text", (col) => col.notNull())
        .addColumn("options", "text", (col) => col.notNull())
        .addColumn("option_counts", "text", (col) => col.notNull())
        .addColumn("top_bins", "text", (col) => col.notNull())
        .addColumn("decisions", "integer", (col) => col.notNull())
        .addColumn("source", "text", (col) => col.notNull())
        .addColumn("set_by", "text", (col) => col.notNull())
        .addColumn("set_at", "text", (col) => col.notNull())
        .addPrimaryKeyConstraint("drift_baselines_pkey", ["endpoint_name", "kind"])
        .execute();
    },
  },
  {
    version: 58,
    name: "endpoint thresholds",
    // The decision threshold a team set for an endpoint: its Monitoring view's fallback rate is read against it.
    up: async (db) => {
      await db.schema
        .createTable("endpoint_thresholds")
        .addColumn("endpoint_name", "text", (col) => col.primaryKey())
        .addColumn("threshold", "double precision", (col) => col.notNull())
        .addColumn("set_by", "text", (col) => col.notNull())
        .addColumn("set_at", "text", (col) => col.notNull())
        .execute();
    },
  },
  {
    version: 59,
    name: "shadow promotions",
    // A promoted shadow test waiting for its endpoint to be InService again on the configuration it went back to:
    // the update to start then, as the console's UpdateRequest, and who asked for it.
    up: async (db) => {
      await db.schema
        .createTable("shadow_promotions")
        .addColumn("endpoint_name", "text", (col) => col.primaryKey())
        .addColumn("update_request", "text", (col) => col.notNull())
        .addColumn("previous_config", "text", (col) => col.notNull())
        .addColumn("requested_by", "text", (col) => col.notNull())
        .addColumn("requested_at", "text", (col) => col.notNull())
        .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
        .addColumn("last_error", "text")
        .execute();
    },
  },
  {
    version: 60,
    name: "autoscaling restores",
    // A variant whose autoscaling an update had to deregister (it changed the instance type): registered again, as
    // stored here, once the endpoint is InService again, by whichever console replica holds the restore's lease.
    up: async (db) => {
      await db.schema
        .createTable("autoscaling_restores")
        .addColumn("endpoint_name", "text", (col) => col.primaryKey())
        .addColumn("variant", "text", (col) => col.notNull())
        .addColumn("autoscaling", "text", (col) => col.notNull())
        .addColumn("requested_at", "text", (col) => col.notNull())
        .execute();
    },
  },
  {
    version: 61,
    name: "gateway keys and usage",
    // The decision gateway (server/gateway): API keys (only a hash of each secret), their limits' token buckets, and
    // one usage row per call. All in the store, so every console replica refuses a revoked key and spends from the
    // same buckets.
    up: async (db) => {
      await db.schema
        .createTable("gateway_keys")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("name", "text", (col) => col.notNull().unique())
        .addColumn("secret_hash", "text", (col) => col.notNull())
        .addColumn("endpoints", "text", (col) => col.notNull())
        .addColumn("aliases", "text", (col) => col.notNull())
        .addColumn("requests_per_minute", "integer", (col) => col.notNull())
        .addColumn("tokens_per_minute", "integer", (col) => col.notNull())
        .addColumn("expires_at", "text")
        .addColumn("revoked_at", "text")
        .addColumn("created_by", "text", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("updated_at", "text", (col) => col.notNull())
        .execute();
      await db.schema
        .createTable("gateway_buckets")
        .addColumn("bucket", "text", (col) => col.primaryKey())
        .addColumn("tokens", "double precision", (col) => col.notNull())
        .addColumn("at_ms", "bigint", (col) => col.notNull())
        .execute();
      await addIdentityColumn(db, db.schema.createTable("gateway_usage"), "id")
        .addColumn("key_id", "text", (col) => col.notNull())
        .addColumn("endpoint_name", "text")
        .addColumn("protocol", "text", (col) => col.notNull())
        .addColumn("status", "integer", (col) => col.notNull())
        .addColumn("input_tokens", "integer", (col) => col.notNull())
        .addColumn("output_tokens", "integer", (col) => col.notNull())
        .addColumn("latency_ms", "double precision", (col) => col.notNull())
        .addColumn("inference_id", "text", (col) => col.notNull())
        .addColumn("at_ms", "bigint", (col) => col.notNull())
        .execute();
      await db.schema.createIndex("gateway_usage_key").on("gateway_usage").columns(["key_id", "at_ms"]).execute();
      await db.schema
        .createIndex("gateway_usage_endpoint")
        .on("gateway_usage")
        .columns(["endpoint_name", "at_ms"])
        .execute();
    },
  },
  {
    version: 62,
    name: "ground truth",
    // Labels learnt later, one per captured decision (its key in captured_decisions), from the label API, SageMaker
    // Model Monitor's ground-truth files or the review queue. The decision's time, kind and scores are copied in, so
    // labels outlive the 7 days single decisions are kept; the inference id the capture recorded finds the decision.
    up: async (db) => {
      await db.schema.alterTable("captured_decisions").addColumn("inference_id", "text").execute();
      await db.schema
        .createIndex("captured_decisions_inference")
        .on("captured_decisions")
        .columns(["endpoint_name", "inference_id"])
        .execute();
      await db.schema
        .createTable("ground_truth_labels")
        .addColumn("endpoint_name", "text", (col) => col.notNull())
        .addColumn("object_key", "text", (col) => col.notNull())
        .addColumn("line", "integer", (col) => col.notNull())
        .addColumn("item", "integer", (col) => col.notNull())
        .addColumn("inference_id", "text")
        .addColumn("variant", "text", (col) => col.notNull())
        .addColumn("kind", "text", (col) => col.notNull())
        .addColumn("at_ms", "bigint", (col) => col.notNull())
        .addColumn("chosen", "text", (col) => col.notNull())
        .addColumn("probabilities", "text", (col) => col.notNull())
        .addColumn("label", "text", (col) => col.notNull())
        .addColumn("labelled_at_ms", "bigint", (col) => col.notNull())
        .addColumn("source", "text", (col) => col.notNull())
        .addPrimaryKeyConstraint("ground_truth_labels_pkey", ["endpoint_name", "object_key", "line", "item"])
        .$call(keyedByPrimaryKey(db))
        .execute();
      await db.schema
        .createIndex("ground_truth_labels_at")
        .on("ground_truth_labels")
        .columns(["endpoint_name", "at_ms"])
        .execute();
    },
  },
  {
    version: 63,
    name: "evaluation links",
    // The evaluation an endpoint was deployed, promoted or updated with, or an operator chose: what its realised
    // quality is compared with (the newest row). Rows are kept, so the page can say since when and why.
    up: async (db) => {
      await addIdentityColumn(db, db.schema.createTable("evaluation_links"), "id")
        .addColumn("endpoint_name", "text", (col) => col.notNull())
        .addColumn("run_id", "text", (col) => col.notNull())
        .addColumn("reason", "text", (col) => col.notNull())
        .addColumn("linked_by", "text", (col) => col.notNull())
        .addColumn("linked_at", "text", (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex("evaluation_links_endpoint")
        .on("evaluation_links")
        .columns(["endpoint_name", "id"])
        .execute();
    },
  },
  {
    version: 64,
    name: "capture reading",
    // How far the background capture reader has got with each endpoint's capture folder, as its last look found
    // it: the Monitoring view answers from the store at once and says this, instead of reading S3 itself.
    up: async (db) => {
      await db.schema
        .createTable("capture_reading")
        .addColumn("endpoint_name", "text", (col) => col.primaryKey())
        .addColumn("unread_objects", "integer", (col) => col.notNull())
        .addColumn("objects_last_look", "integer", (col) => col.notNull())
        .addColumn("looked_at", "text", (col) => col.notNull())
        .execute();
    },
  },
  {
    version: 65,
    name: "label figures",
    // What each label says of its decision (label-figures.ts), stored with it so realised quality is summed in the
    // store: reading 500,000 labels' probabilities on every view took seconds. Labels already stored get theirs here.
    up: async (db) => {
      const columns = [
        ["top_probability", "double precision", false],
        ["correct", "integer", true],
        ["brier", "double precision", false],
        ["confidence_bin", "integer", false],
        ["delay_ms", "bigint", true],
        ["decided_hour", "bigint", true],
      ] as const;
      for (const [name, type, notNull] of columns) {
        await db.schema
          .alterTable("ground_truth_labels")
          .addColumn(name, type, (col) => (notNull ? col.notNull().defaultTo(0) : col))
          .execute();
      }
      await fillLabelFigures(db);
      // Each kind's labels in the order realised quality sums them (its hours) and ranks their delays, holding every
      // column those read: the store walks an index instead of sorting hundreds of thousands of rows per view.
      await db.schema
        .createIndex("ground_truth_labels_hours")
        .on("ground_truth_labels")
        .columns([
          "endpoint_name",
          "kind",
          "decided_hour",
          "correct",
          "confidence_bin",
          "variant",
          "top_probability",
          "brier",
        ])
        .execute();
      await db.schema
        .createIndex("ground_truth_labels_delays")
        .on("ground_truth_labels")
        .columns(["endpoint_name", "kind", "delay_ms", "decided_hour", "variant"])
        .execute();
    },
  },
  {
    version: 66,
    name: "evaluation link versions",
    // The registry version a link came with: it stands only while the endpoint serves that version, so an update
    // SageMaker rolls back leaves the link of the version served again. Chosen links (and older rows) have none.
    up: async (db) => {
      await db.schema.alterTable("evaluation_links").addColumn("model_version_arn", "text").execute();
    },
  },
];

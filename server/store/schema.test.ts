import type { Selectable } from "kysely";
import { expect, it } from "vitest";
import { schemaShape } from "../../tests/support/store/schema-shape.ts";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import type { ConsoleTables } from "./schema.ts";

type Family<V> = [V] extends [number] ? "integer" | "real" : [V] extends [string] ? "text" : never;
type Declared<V> = null extends V ? `${Family<NonNullable<V>>} null` : Family<V>;

/**
 * Every column of ConsoleTables, as the migrations must create it: its type family and whether it takes NULL.
 * The type makes tsc require each table and column of the interface here, no other, each with the family and
 * nullability its TypeScript type implies; the test below compares it with what the migrations create.
 */
const declared: {
  [T in keyof ConsoleTables]: {
    [C in keyof Selectable<ConsoleTables[T]>]-?: Declared<Selectable<ConsoleTables[T]>[C]>;
  };
} = {
  settings: { key: "text", value: "text", updated_at: "text" },
  leases: { name: "text", holder: "text", expires_at_ms: "integer", acquired_at: "text" },
  evaluation_datasets: {
    id: "text",
    name: "text",
    source: "text",
    format: "text",
    item_count: "integer",
    created_at: "text",
  },
  evaluation_dataset_items: {
    dataset_id: "text",
    position: "integer",
    item_id: "text",
    decision: "text",
    answer: "text",
    category: "text null",
    tier: "text null",
  },
  evaluation_runs: {
    id: "text",
    dataset_id: "text",
    status: "text",
    concurrency: "integer",
    target_accuracy: "real",
    created_at: "text",
    resumed_at: "text",
    finished_at: "text null",
    failure: "text null",
  },
  evaluation_targets: { run_id: "text", slot: "integer", endpoint_name: "text", configuration: "text null" },
  evaluation_results: {
    run_id: "text",
    slot: "integer",
    position: "integer",
    item_id: "text",
    option_ids: "text null",
    probabilities: "text null",
    logits: "text null",
    chosen: "text null",
    latency_ms: "real",
    adapter_ms: "real null",
    attempts: "integer",
    error_kind: "text null",
    error_message: "text null",
    finished_at: "text",
  },
  evaluation_batch_jobs: {
    run_id: "text",
    job_name: "text",
    model_name: "text",
    instance_type: "text",
    instance_count: "integer",
    max_concurrent_transforms: "integer null",
    input_s3_uri: "text",
    output_s3_uri: "text",
  },
  users: { name: "text", role: "text", password_hash: "text", created_at: "text", updated_at: "text" },
  audit_log: {
    id: "integer",
    at: "text",
    actor: "text",
    action: "text",
    target: "text",
    aws_request_id: "text null",
    result: "text",
    detail: "text null",
  },
  revoked_sessions: { jti: "text", expires_at: "text" },
  sign_in_buckets: { bucket: "text", tokens: "real", at_ms: "integer" },
  console_invocations: {
    id: "integer",
    endpoint_name: "text",
    at: "text",
    stream: "integer",
    status: "integer",
    latency_ms: "real",
    retries: "integer",
    request_bytes: "integer",
    request_preview: "text",
    error: "text null",
    user_name: "text null",
  },
  endpoint_summaries: { endpoint_name: "text", listing_key: "text", summary: "text", stored_at: "text" },
  async_requests: {
    inference_id: "text",
    endpoint_name: "text",
    input_location: "text",
    output_location: "text",
    failure_location: "text null",
    sender_kind: "text",
    user_name: "text null",
    run_id: "text null",
    slot: "integer null",
    position: "integer null",
    item_id: "text null",
    submitted_at: "text",
    state: "text",
    checked_at: "text null",
    accepted_at: "text null",
  },
  capture_objects: {
    endpoint_name: "text",
    object_key: "text",
    variant: "text",
    records: "integer",
    decisions: "integer",
    unreadable: "integer",
    read_at: "text",
  },
  decision_kinds: { endpoint_name: "text", kind: "text", question: "text", options: "text" },
  decision_rollups: {
    endpoint_name: "text",
    variant: "text",
    minute: "integer",
    kind: "text",
    chosen: "text",
    decisions: "integer",
    top_bins: "text",
    latency_bins: "text",
    latency_sum_ms: "real",
    latency_count: "integer",
  },
  captured_decisions: {
    endpoint_name: "text",
    object_key: "text",
    line: "integer",
    item: "integer",
    variant: "text",
    at_ms: "integer",
    kind: "text",
    input_key: "text",
    chosen: "text",
    top_probability: "real",
    probabilities: "text",
    latency_ms: "real null",
  },
  shadow_tests: {
    endpoint_name: "text",
    shadow_config: "text",
    previous_config: "text",
    change: "text",
    sampling_percentage: "integer",
    started_at: "text",
    started_by: "text",
  },
  decision_reviews: {
    endpoint_name: "text",
    object_key: "text",
    line: "integer",
    item: "integer",
    kind: "text",
    label: "text null",
    variant: "text",
    at_ms: "integer",
    chosen: "text",
    probabilities: "text",
    decision: "text",
    labelled_by: "text",
    labelled_at: "text",
  },
  drift_baselines: {
    endpoint_name: "text",
    kind: "text",
    question: "text",
    options: "text",
    option_counts: "text",
    top_bins: "text",
    decisions: "integer",
    source: "text",
    set_by: "text",
    set_at: "text",
  },
  endpoint_thresholds: { endpoint_name: "text", threshold: "real", set_by: "text", set_at: "text" },
  autoscaling_restores: { endpoint_name: "text", variant: "text", autoscaling: "text", requested_at: "text" },
  shadow_promotions: {
    endpoint_name: "text",
    update_request: "text",
    previous_config: "text",
    requested_by: "text",
    requested_at: "text",
    attempts: "integer",
    last_error: "text null",
  },
};

describeOnStores("the store's schema.ts", (current) => {
  it("names every table and column the migrations create, with their types and NULLs, and no other", async () => {
    const migrated: Record<string, Record<string, string>> = {};
    for (const column of await schemaShape(current().store)) {
      if (column.table.startsWith("kysely_")) continue;
      migrated[column.table] ??= {};
      migrated[column.table]![column.column] = `${column.type}${column.notNull ? "" : " null"}`;
    }
    expect(migrated).toEqual(declared);
  });
});

import type { Generated } from "kysely";

/**
 * The console's tables as its queries see them, one interface per table, in the shape migrations.ts gives them
 * (SQLite and PostgreSQL alike). Timestamps are ISO-8601 text; lists and details are JSON text.
 */
export interface ConsoleTables {
  settings: { key: string; value: string; updated_at: string };
  leases: { name: string; holder: string; expires_at_ms: number; acquired_at: string };
  evaluation_datasets: {
    id: string;
    name: string;
    source: "upload" | "sample";
    format: string;
    item_count: number;
    created_at: string;
  };
  evaluation_dataset_items: {
    dataset_id: string;
    position: number;
    item_id: string;
    decision: string;
    answer: string;
    category: string | null;
    tier: string | null;
  };
  evaluation_runs: {
    id: string;
    dataset_id: string;
    status: "running" | "completed" | "cancelled" | "failed";
    concurrency: number;
    target_accuracy: number;
    created_at: string;
    resumed_at: string;
    finished_at: string | null;
    failure: string | null;
  };
  evaluation_targets: { run_id: string; slot: number; endpoint_name: string; configuration: string | null };
  evaluation_results: {
    run_id: string;
    slot: number;
    position: number;
    item_id: string;
    option_ids: string | null;
    probabilities: string | null;
    logits: string | null;
    chosen: string | null;
    latency_ms: number;
    adapter_ms: number | null;
    attempts: number;
    error_kind: string | null;
    error_message: string | null;
    finished_at: string;
  };
  evaluation_batch_jobs: {
    run_id: string;
    job_name: string;
    model_name: string;
    instance_type: string;
    instance_count: number;
    max_concurrent_transforms: number | null;
    input_s3_uri: string;
    output_s3_uri: string;
  };
  users: { name: string; role: "viewer" | "operator"; password_hash: string; created_at: string; updated_at: string };
  audit_log: {
    id: Generated<number>;
    at: string;
    actor: string;
    action: string;
    target: string;
    aws_request_id: string | null;
    result: "ok" | "error" | "denied";
    detail: string | null;
  };
  revoked_sessions: { jti: string; expires_at: string };
  sign_in_buckets: { bucket: string; tokens: number; at_ms: number };
  console_invocations: {
    id: Generated<number>;
    endpoint_name: string;
    at: string;
    stream: 0 | 1;
    status: number;
    latency_ms: number;
    retries: number;
    request_bytes: number;
    request_preview: string;
    error: string | null;
    user_name: string | null;
  };
  endpoint_summaries: { endpoint_name: string; listing_key: string; summary: string; stored_at: string };
  async_requests: {
    inference_id: string;
    endpoint_name: string;
    input_location: string;
    output_location: string;
    failure_location: string | null;
    sender_kind: "playground" | "evaluation";
    user_name: string | null;
    run_id: string | null;
    slot: number | null;
    position: number | null;
    item_id: string | null;
    submitted_at: string;
    state: "queued" | "done" | "failed";
    checked_at: string | null;
    accepted_at: string | null;
  };
  capture_objects: {
    endpoint_name: string;
    object_key: string;
    variant: string;
    records: number;
    decisions: number;
    unreadable: number;
    read_at: string;
  };
  capture_reading: { endpoint_name: string; unread_objects: number; objects_last_look: number; looked_at: string };
  decision_kinds: { endpoint_name: string; kind: string; question: string; options: string };
  decision_rollups: {
    endpoint_name: string;
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
  captured_decisions: {
    endpoint_name: string;
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
    inference_id: string | null;
  };
  ground_truth_labels: {
    endpoint_name: string;
    object_key: string;
    line: number;
    item: number;
    inference_id: string | null;
    variant: string;
    kind: string;
    at_ms: number;
    chosen: string;
    probabilities: string;
    label: string;
    labelled_at_ms: number;
    source: string;
    /** The decision's highest probability, which the threshold is compared with; null when it has none. */
    top_probability: number | null;
    /** 1 when the decision's chosen option (the evaluation's rule: the highest, the first of a tie) is the label. */
    correct: number;
    /** Its Brier term; null when its probabilities do not match its options (not scored). */
    brier: number | null;
    /** Its reliability bin (CALIBRATION_BINS); null when not scored. */
    confidence_bin: number | null;
    /** How long after the decision its label was learnt (never below 0). */
    delay_ms: number;
    /** The hour the decision was made in (at_ms / 3,600,000, rounded down): realised quality's finest interval. */
    decided_hour: number;
  };
  shadow_tests: {
    endpoint_name: string;
    shadow_config: string;
    previous_config: string;
    change: string;
    sampling_percentage: number;
    started_at: string;
    started_by: string;
  };
  decision_reviews: {
    endpoint_name: string;
    object_key: string;
    line: number;
    item: number;
    kind: string;
    label: string | null;
    variant: string;
    at_ms: number;
    chosen: string;
    probabilities: string;
    decision: string;
    labelled_by: string;
    labelled_at: string;
  };
  drift_baselines: {
    endpoint_name: string;
    kind: string;
    question: string;
    options: string;
    option_counts: string;
    top_bins: string;
    decisions: number;
    source: string;
    set_by: string;
    set_at: string;
  };
  endpoint_thresholds: { endpoint_name: string; threshold: number; set_by: string; set_at: string };
  autoscaling_restores: { endpoint_name: string; variant: string; autoscaling: string; requested_at: string };
  gateway_keys: {
    id: string;
    name: string;
    secret_hash: string;
    /** JSON: the endpoint names the key may call; a name ending in `*` is a prefix. */
    endpoints: string;
    /** JSON: `{alias: endpoint name}`, the model names the key's callers may use besides the endpoints' own. */
    aliases: string;
    requests_per_minute: number;
    tokens_per_minute: number;
    expires_at: string | null;
    revoked_at: string | null;
    created_by: string;
    created_at: string;
    updated_at: string;
  };
  gateway_buckets: { bucket: string; tokens: number; at_ms: number };
  gateway_usage: {
    id: Generated<number>;
    key_id: string;
    endpoint_name: string | null;
    protocol: "systemone" | "decisions";
    status: number;
    input_tokens: number;
    output_tokens: number;
    latency_ms: number;
    inference_id: string;
    at_ms: number;
  };
  shadow_promotions: {
    endpoint_name: string;
    update_request: string;
    previous_config: string;
    requested_by: string;
    requested_at: string;
    attempts: Generated<number>;
    last_error: string | null;
  };
  evaluation_links: {
    id: Generated<number>;
    endpoint_name: string;
    run_id: string;
    reason: "deployed" | "promoted" | "updated" | "chosen";
    linked_by: string;
    linked_at: string;
    /** The registry version the link came with (deployed, updated or promoted to it); null for a chosen run. */
    model_version_arn: string | null;
  };
}

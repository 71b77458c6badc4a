import type { Db } from "./database.ts";

export interface InvocationSample {
  timestamp: number;
  modelLatencyUs: number | null;
  status: number;
}

/** Local CloudWatch metrics: one row per invocation of a local endpoint, aggregated on read. */
export class MetricsStore {
  constructor(private readonly db: Db) {}

  recordInvocation(endpoint: string, variant: string, status: number, modelLatencyUs: number | null) {
    this.db
      .prepare(
        "INSERT INTO invocation_metrics (endpoint, variant, timestamp, model_latency_us, status) VALUES (?, ?, ?, ?, ?)",
      )
      .run(endpoint, variant, Date.now(), modelLatencyUs, status);
  }

  samples(endpoint: string, variant: string | null, fromMs: number, toMs: number): InvocationSample[] {
    return this.db
      .prepare(
        `SELECT timestamp, model_latency_us AS modelLatencyUs, status FROM invocation_metrics
         WHERE endpoint = ? AND (? IS NULL OR variant = ?) AND timestamp >= ? AND timestamp < ? ORDER BY timestamp`,
      )
      .all(endpoint, variant, variant, fromMs, toMs) as InvocationSample[];
  }
}

import type { Db } from "./database.ts";

export type Dimensions = Record<string, string>;

export interface Datapoint {
  timestamp: number;
  value: number;
  unit: string;
}

/** CloudWatch keeps 1-minute data 15 days; local mode keeps published datapoints that long too. */
const RETENTION_MS = 15 * 24 * 60 * 60 * 1000;

/** A metric's dimensions in one canonical text, so that a query matches a series whatever order it names them in. */
function dimensionKey(dimensions: Dimensions): string {
  return JSON.stringify(Object.entries(dimensions).sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * Local CloudWatch: datapoints that local services publish for a metric (namespace, name, exact dimensions), the
 * way SageMaker publishes its asynchronous-endpoint metrics. GetMetricData aggregates them on read.
 */
export class MetricDatapoints {
  constructor(private readonly db: Db) {}

  put(namespace: string, metricName: string, dimensions: Dimensions, value: number, unit: string, at = Date.now()) {
    this.db
      .prepare(
        "INSERT INTO metric_datapoints (namespace, metric_name, dimensions, timestamp, value, unit) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .run(namespace, metricName, dimensionKey(dimensions), at, value, unit);
  }

  /** Datapoints of one series with timestamps in [fromMs, toMs), oldest first. */
  read(namespace: string, metricName: string, dimensions: Dimensions, fromMs: number, toMs: number): Datapoint[] {
    return this.db
      .prepare(
        `SELECT timestamp, value, unit FROM metric_datapoints WHERE namespace = ? AND metric_name = ? AND dimensions = ?
         AND timestamp >= ? AND timestamp < ? ORDER BY timestamp`,
      )
      .all(namespace, metricName, dimensionKey(dimensions), fromMs, toMs) as Datapoint[];
  }

  prune(now = Date.now()) {
    this.db.prepare("DELETE FROM metric_datapoints WHERE timestamp < ?").run(now - RETENTION_MS);
  }
}

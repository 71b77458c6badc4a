import type { Db } from "./database.ts";

export interface LogEvent {
  id: number;
  stream: string;
  timestamp: number;
  message: string;
}

/** Local CloudWatch Logs: build and endpoint output, one row per line, grouped like AWS names them. */
export class LogStore {
  constructor(private readonly db: Db) {}

  append(group: string, stream: string, message: string, timestamp = Date.now()) {
    this.db
      .prepare("INSERT INTO log_events (group_name, stream_name, timestamp, message) VALUES (?, ?, ?, ?)")
      .run(group, stream, timestamp, message);
  }

  hasGroup(group: string): boolean {
    return this.db.prepare("SELECT 1 FROM log_events WHERE group_name = ? LIMIT 1").get(group) !== undefined;
  }

  hasStream(group: string, stream: string): boolean {
    return (
      this.db
        .prepare("SELECT 1 FROM log_events WHERE group_name = ? AND stream_name = ? LIMIT 1")
        .get(group, stream) !== undefined
    );
  }

  /** Events of one stream with ids in (after, before), time-filtered, the first or last `limit` of them. */
  read(
    group: string,
    stream: string | null,
    options: {
      after?: number;
      before?: number;
      from?: number;
      to?: number;
      limit: number;
      fromHead: boolean;
      contains?: string;
    },
  ): LogEvent[] {
    const rows = this.db
      .prepare(
        `SELECT id, stream_name AS stream, timestamp, message FROM log_events
         WHERE group_name = ? AND (? IS NULL OR stream_name = ?) AND id > ? AND id < ? AND timestamp >= ? AND timestamp < ?
           AND (? IS NULL OR instr(message, ?) > 0)
         ORDER BY id ${options.fromHead ? "ASC" : "DESC"} LIMIT ?`,
      )
      .all(
        group,
        stream,
        stream,
        options.after ?? 0,
        options.before ?? Number.MAX_SAFE_INTEGER,
        options.from ?? 0,
        options.to ?? Number.MAX_SAFE_INTEGER,
        options.contains ?? null,
        options.contains ?? null,
        options.limit,
      ) as LogEvent[];
    return options.fromHead ? rows : rows.reverse();
  }

  /** Up to `limit` events of the group with ids above `after`, in the time range, oldest first. */
  scan(group: string, options: { after: number; from?: number; to?: number; limit: number }): LogEvent[] {
    return this.db
      .prepare(
        `SELECT id, stream_name AS stream, timestamp, message FROM log_events
         WHERE group_name = ? AND id > ? AND timestamp >= ? AND timestamp < ? ORDER BY id ASC LIMIT ?`,
      )
      .all(group, options.after, options.from ?? 0, options.to ?? Number.MAX_SAFE_INTEGER, options.limit) as LogEvent[];
  }

  streams(group: string): { stream: string; first: number; last: number; created: number }[] {
    return this.db
      .prepare(
        `SELECT stream_name AS stream, MIN(timestamp) AS first, MAX(timestamp) AS last, MIN(timestamp) AS created
         FROM log_events WHERE group_name = ? GROUP BY stream_name ORDER BY last DESC`,
      )
      .all(group) as { stream: string; first: number; last: number; created: number }[];
  }
}

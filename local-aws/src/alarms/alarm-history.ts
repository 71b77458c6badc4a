import type { Db } from "../database.ts";

/** The history item types local mode records (the service model's HistoryItemType has Action and contributor kinds too). */
export type RecordedHistoryItemType = "ConfigurationUpdate" | "StateUpdate";

export interface AlarmHistoryItem {
  id: number;
  alarmName: string;
  /** Epoch milliseconds. */
  at: number;
  itemType: RecordedHistoryItemType;
  summary: string;
  /** JSON, as AWS returns HistoryData. */
  data: string;
}

/**
 * "Amazon CloudWatch retains the history of active and deleted alarms for two weeks" (CloudWatch CLI reference,
 * mon-describe-alarm-history): older items are dropped as new ones are written.
 */
const RETENTION_MS = 14 * 24 * 60 * 60 * 1000;

/** Local CloudWatch's alarm history: what DescribeAlarmHistory returns, kept after an alarm is deleted. */
export class AlarmHistory {
  constructor(private readonly db: Db) {}

  add(item: Omit<AlarmHistoryItem, "id">): void {
    this.db.transaction(() => {
      this.db.prepare("DELETE FROM cw_alarm_history WHERE at < ?").run(item.at - RETENTION_MS);
      this.db
        .prepare("INSERT INTO cw_alarm_history (alarm_name, at, item_type, summary, data) VALUES (?, ?, ?, ?, ?)")
        .run(item.alarmName, item.at, item.itemType, item.summary, item.data);
    })();
  }

  /** Items of one alarm (or all), of one type (or all), with times in [from, to], newest or oldest first. */
  find(query: {
    alarmName?: string;
    itemType?: RecordedHistoryItemType;
    from?: number;
    to?: number;
    ascending: boolean;
  }): AlarmHistoryItem[] {
    const rows = this.db
      .prepare(
        `SELECT id, alarm_name, at, item_type, summary, data FROM cw_alarm_history
         WHERE (? IS NULL OR alarm_name = ?) AND (? IS NULL OR item_type = ?) AND at >= ? AND at <= ?
         ORDER BY at ${query.ascending ? "ASC" : "DESC"}, id ${query.ascending ? "ASC" : "DESC"}`,
      )
      .all(
        query.alarmName ?? null,
        query.alarmName ?? null,
        query.itemType ?? null,
        query.itemType ?? null,
        query.from ?? 0,
        query.to ?? Number.MAX_SAFE_INTEGER,
      ) as {
      id: number;
      alarm_name: string;
      at: number;
      item_type: RecordedHistoryItemType;
      summary: string;
      data: string;
    }[];
    return rows.map((row) => ({
      id: row.id,
      alarmName: row.alarm_name,
      at: row.at,
      itemType: row.item_type,
      summary: row.summary,
      data: row.data,
    }));
  }
}

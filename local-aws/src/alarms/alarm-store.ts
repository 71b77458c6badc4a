import type { Db } from "../database.ts";
import type { StoredAlarm } from "./metric-alarm.ts";

/** CloudWatch metric alarms of the local control plane, one JSON document per alarm name. */
export class AlarmStore {
  constructor(private readonly db: Db) {}

  get(name: string): StoredAlarm | undefined {
    const row = this.db.prepare("SELECT doc FROM cw_alarms WHERE name = ?").get(name) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as StoredAlarm) : undefined;
  }

  /** Every alarm, by name (DescribeAlarms lists them in this order). */
  all(): StoredAlarm[] {
    return (this.db.prepare("SELECT doc FROM cw_alarms ORDER BY name").all() as { doc: string }[]).map(
      (row) => JSON.parse(row.doc) as StoredAlarm,
    );
  }

  save(alarm: StoredAlarm): void {
    this.db
      .prepare("INSERT INTO cw_alarms (name, doc) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET doc = excluded.doc")
      .run(alarm.definition.AlarmName, JSON.stringify(alarm));
  }

  delete(names: readonly string[]): void {
    const remove = this.db.prepare("DELETE FROM cw_alarms WHERE name = ?");
    this.db.transaction(() => {
      for (const name of names) remove.run(name);
    })();
  }
}

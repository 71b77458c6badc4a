import type { EndpointThreshold } from "../../contract/endpoints/monitoring.ts";
import type { Db } from "../store/database.ts";

interface Row {
  endpoint_name: string;
  threshold: number;
  set_by: string;
  set_at: string;
}

const fromRow = (row: Row): EndpointThreshold => ({
  endpointName: row.endpoint_name,
  threshold: row.threshold,
  setBy: row.set_by,
  setAt: row.set_at,
});

/** The threshold a team stored for the endpoint, or null when none is. */
export function storedThreshold(db: Db, endpointName: string): EndpointThreshold | null {
  const row = db.prepare("SELECT * FROM endpoint_thresholds WHERE endpoint_name = ?").get(endpointName) as
    | Row
    | undefined;
  return row ? fromRow(row) : null;
}

/** Stores (or replaces) the endpoint's threshold. */
export function storeThreshold(
  db: Db,
  endpointName: string,
  threshold: number,
  setBy: string,
  at = new Date(),
): EndpointThreshold {
  db.prepare(
    `INSERT INTO endpoint_thresholds (endpoint_name, threshold, set_by, set_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (endpoint_name) DO UPDATE SET threshold = excluded.threshold, set_by = excluded.set_by,
       set_at = excluded.set_at`,
  ).run(endpointName, threshold, setBy, at.toISOString());
  return storedThreshold(db, endpointName)!;
}

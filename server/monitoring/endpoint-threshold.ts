import type { Selectable } from "kysely";
import {
  DEFAULT_DECISION_THRESHOLD,
  type EndpointThreshold,
  type ThresholdInUse,
} from "../../contract/endpoints/monitoring.ts";
import type { ConsoleTables } from "../store/schema.ts";
import type { Store } from "../store/store.ts";

const fromRow = (row: Selectable<ConsoleTables["endpoint_thresholds"]>): EndpointThreshold => ({
  endpointName: row.endpoint_name,
  threshold: row.threshold,
  setBy: row.set_by,
  setAt: row.set_at,
});

/** The threshold a team stored for the endpoint, or null when none is. */
export async function storedThreshold(store: Store, endpointName: string): Promise<EndpointThreshold | null> {
  const row = await store
    .selectFrom("endpoint_thresholds")
    .selectAll()
    .where("endpoint_name", "=", endpointName)
    .executeTakeFirst();
  return row ? fromRow(row) : null;
}

/** The threshold the endpoint's decisions are read against: the stored one, else the default. */
export async function thresholdInUse(store: Store, endpointName: string): Promise<ThresholdInUse> {
  const stored = await storedThreshold(store, endpointName);
  return stored
    ? { endpointName, threshold: stored.threshold, kept: { setBy: stored.setBy, setAt: stored.setAt } }
    : { endpointName, threshold: DEFAULT_DECISION_THRESHOLD, kept: null };
}

/** Stores (or replaces) the endpoint's threshold. */
export async function storeThreshold(
  store: Store,
  endpointName: string,
  threshold: number,
  setBy: string,
  at = new Date(),
): Promise<EndpointThreshold> {
  const row = await store
    .insertInto("endpoint_thresholds")
    .values({ endpoint_name: endpointName, threshold, set_by: setBy, set_at: at.toISOString() })
    .onConflict((oc) =>
      oc.columns(["endpoint_name"]).doUpdateSet((eb) => ({
        threshold: eb.ref("excluded.threshold"),
        set_by: eb.ref("excluded.set_by"),
        set_at: eb.ref("excluded.set_at"),
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  return fromRow(row);
}

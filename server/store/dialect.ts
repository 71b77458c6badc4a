import { PostgresAdapter } from "kysely";
import type { Store, StoreDialect } from "./store.ts";

/** Which database `store` runs on, for the few statements the dialects spell differently (row locks). */
export function storeDialect(store: Store): StoreDialect {
  return store.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}

import { type Kysely, PostgresAdapter } from "kysely";
import type { StoreDialect } from "./store.ts";

/** Which database `store` runs on, for the few statements the dialects spell differently (row locks, migrations). */
export function storeDialect(store: Pick<Kysely<never>, "getExecutor">): StoreDialect {
  return store.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}

import type Database from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import type { Store } from "./store.ts";

/**
 * The console's store on an open SQLite database (openDatabase: private files, WAL, migrated). Kysely runs every
 * query on this one connection in turn, a transaction holding it throughout, so transactions never interleave.
 */
export function sqliteStore(db: Database.Database): Store {
  return new Kysely({ dialect: new SqliteDialect({ database: db }) });
}

import path from "node:path";
import { type ConsoleConfig, consoleConfig } from "../config.ts";
import { type Db, openDatabase, resolveDataDir } from "./database.ts";
import { sqliteStore } from "./sqlite-store.ts";
import type { Store } from "./store.ts";

type DataSettings = Pick<ConsoleConfig, "CONSOLE_DATA_DIR">;

export function consoleDatabasePath(settings: DataSettings = consoleConfig()): string {
  return path.join(resolveDataDir(settings), "console.db");
}

/**
 * The console's SQLite database (users, revoked sessions, audit log, playground invocations, evaluation datasets and
 * runs, endpoint summaries), opened once per process and data directory.
 * Kept on `globalThis` because Next.js bundles the proxy and route handlers separately in one process.
 */
export function consoleDatabase(settings: DataSettings = consoleConfig()): Db {
  const file = consoleDatabasePath(settings);
  const store = globalThis as { __consoleDatabases?: Map<string, Db> };
  store.__consoleDatabases ??= new Map();
  let db = store.__consoleDatabases.get(file);
  if (!db?.open) {
    db = openDatabase(file);
    store.__consoleDatabases.set(file, db);
  }
  return db;
}

/** The console's store: its typed query layer over the database above, once per process and database. */
export function consoleStore(settings: DataSettings = consoleConfig()): Store {
  const db = consoleDatabase(settings);
  const stores = globalThis as { __consoleStores?: WeakMap<Db, Store> };
  stores.__consoleStores ??= new WeakMap();
  let store = stores.__consoleStores.get(db);
  if (!store) {
    store = sqliteStore(db);
    stores.__consoleStores.set(db, store);
  }
  return store;
}

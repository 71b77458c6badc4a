import path from "node:path";
import { type ConsoleConfig, consoleConfig } from "../config.ts";
import { openDatabase, resolveDataDir } from "./database.ts";
import { describePostgresUrl, postgresStore } from "./postgres-store.ts";
import { sqliteStore } from "./sqlite-store.ts";
import type { Store } from "./store.ts";

type StoreSettings = Pick<ConsoleConfig, "CONSOLE_DATA_DIR" | "CONSOLE_DATABASE_URL">;

/** The SQLite file the console keeps its data in when CONSOLE_DATABASE_URL is unset. */
export function consoleDatabasePath(settings: Pick<ConsoleConfig, "CONSOLE_DATA_DIR"> = consoleConfig()): string {
  return path.join(resolveDataDir(settings), "console.db");
}

/** Where the console's store is, for people: the SQLite file, or PostgreSQL's host, port and database. */
export function consoleStoreLocation(settings: StoreSettings = consoleConfig()): string {
  return settings.CONSOLE_DATABASE_URL
    ? `PostgreSQL ${describePostgresUrl(settings.CONSOLE_DATABASE_URL)}`
    : consoleDatabasePath(settings);
}

/**
 * A new connection to the console's store: PostgreSQL at CONSOLE_DATABASE_URL (migrated before its first query),
 * else the SQLite file in CONSOLE_DATA_DIR (private files, WAL, migrated now). The caller destroys it.
 */
export function openConsoleStore(settings: StoreSettings = consoleConfig()): Store {
  return settings.CONSOLE_DATABASE_URL
    ? postgresStore(settings.CONSOLE_DATABASE_URL)
    : sqliteStore(openDatabase(consoleDatabasePath(settings)));
}

const openStores = () => {
  const process_ = globalThis as { __consoleStores?: Map<string, Store> };
  process_.__consoleStores ??= new Map();
  return process_.__consoleStores;
};

const storeKey = (settings: StoreSettings) => settings.CONSOLE_DATABASE_URL ?? consoleDatabasePath(settings);

/**
 * The console's store (users, revoked sessions, audit log, playground invocations, evaluation datasets and runs,
 * endpoint summaries, monitoring, leases), opened once per process and database. Kept on `globalThis` because
 * Next.js bundles the proxy and route handlers separately in one process.
 */
export function consoleStore(settings: StoreSettings = consoleConfig()): Store {
  const stores = openStores();
  const key = storeKey(settings);
  let store = stores.get(key);
  if (!store) {
    store = openConsoleStore(settings);
    stores.set(key, store);
  }
  return store;
}

/** Closes the process's store for these settings (tests that move the console to another data directory). */
export async function closeConsoleStore(settings: StoreSettings = consoleConfig()): Promise<void> {
  const stores = openStores();
  const key = storeKey(settings);
  const store = stores.get(key);
  stores.delete(key);
  await store?.destroy();
}

import path from "node:path";
import { type Db, openDatabase, resolveDataDir } from "./database.ts";

export function consoleDatabasePath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(resolveDataDir(env), "console.db");
}

/**
 * The console's SQLite database (users, revoked sessions, audit log, playground invocations, evaluation datasets and
 * runs, endpoint summaries), opened once per process and data directory.
 * Kept on `globalThis` because Next.js bundles the proxy and route handlers separately in one process.
 */
export function consoleDatabase(env: NodeJS.ProcessEnv = process.env): Db {
  const file = consoleDatabasePath(env);
  const store = globalThis as { __consoleDatabases?: Map<string, Db> };
  store.__consoleDatabases ??= new Map();
  let db = store.__consoleDatabases.get(file);
  if (!db?.open) {
    db = openDatabase(file);
    store.__consoleDatabases.set(file, db);
  }
  return db;
}

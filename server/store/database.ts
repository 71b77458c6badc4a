import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { ConsoleConfig } from "../config.ts";
import { AppError } from "../http/app-error.ts";
import { migrations as consoleMigrations, type Migration } from "./migrations.ts";
import { privateDirectory, privateFile, unusableDataDirectory } from "./private-files.ts";

export type Db = Database.Database;

/**
 * The data directory of `settings` (CONSOLE_DATA_DIR). The local control plane imports this module too, so it does
 * not read the console's settings itself; with none given it is config.ts's default folder.
 */
export function resolveDataDir(
  settings: Pick<ConsoleConfig, "CONSOLE_DATA_DIR"> = { CONSOLE_DATA_DIR: ".console-data" },
): string {
  // The data directory is chosen at run time; without the ignore comment Turbopack traces the whole project into
  // the server output because it cannot tell which files this path may reach.
  return path.resolve(/*turbopackIgnore: true*/ settings.CONSOLE_DATA_DIR);
}

/**
 * Opens (creating if needed) a SQLite database in WAL mode and brings it to the newest schema. The directory is
 * made 0700 and the database 0600 before SQLite opens it: SQLite creates its WAL and SHM files with the
 * database's own mode.
 * A data directory that cannot be created or written, or a file that is not a database, is a start-up error
 * that names the path and what to do, never a stack trace.
 */
export function openDatabase(file: string, migrations: readonly Migration[] = consoleMigrations): Db {
  const dir = path.dirname(file);
  try {
    privateDirectory(dir);
    fs.accessSync(dir, fs.constants.W_OK);
  } catch (error) {
    throw unusableDataDirectory(dir, error);
  }
  let db: Db;
  try {
    privateFile(file);
    for (const companion of [`${file}-wal`, `${file}-shm`]) {
      if (fs.existsSync(/*turbopackIgnore: true*/ companion)) privateFile(companion);
    }
    db = new Database(file);
    db.pragma("journal_mode = WAL");
    db.pragma("foreign_keys = ON");
    db.pragma("busy_timeout = 5000");
    db.pragma("synchronous = NORMAL");
    migrate(db, migrations);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(
      "internal",
      `The database ${file} cannot be opened (${(error as Error).message}). ` +
        "Restore it from a backup (npm run backup makes one) or move it away to start empty.",
    );
  }
  return db;
}

export function schemaVersion(db: Db): number {
  return db.pragma("user_version", { simple: true }) as number;
}

/**
 * Applies, in one transaction each, every migration not yet recorded in `schema_migrations`. Recording each
 * version (not only the highest in `user_version`) matters because areas own separate version ranges: a
 * migration 12 that lands after 31 has shipped must still run on databases already at 31.
 */
export function migrate(db: Db, migrations: readonly Migration[]): void {
  const tracked = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
  );
  const record = db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)");
  const ordered = [...migrations].sort((a, b) => a.version - b.version);
  if (!tracked) {
    // A database from before this table existed: what its user_version covers was applied.
    const covered = schemaVersion(db);
    for (const migration of ordered) {
      if (migration.version <= covered) record.run(migration.version, migration.name, new Date().toISOString());
    }
  }
  const applied = new Set(
    (db.prepare("SELECT version FROM schema_migrations").all() as { version: number }[]).map((row) => row.version),
  );
  for (const migration of ordered) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.version, migration.name, new Date().toISOString());
      db.pragma(`user_version = ${Math.max(schemaVersion(db), migration.version)}`);
    })();
  }
}

import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { AppError } from "../http/app-error.ts";
import { type Migration, migrations as consoleMigrations } from "./migrations.ts";

export type Db = Database.Database;

export function resolveDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.CONSOLE_DATA_DIR || ".console-data");
}

/**
 * Opens (creating if needed) a SQLite database in WAL mode and brings it to the newest schema.
 * A data directory that cannot be created or written, or a file that is not a database, is a start-up error
 * that names the path and what to do, never a stack trace.
 */
export function openDatabase(file: string, migrations: readonly Migration[] = consoleMigrations): Db {
  const dir = path.dirname(file);
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.accessSync(dir, fs.constants.W_OK);
  } catch (error) {
    throw new AppError(
      "internal",
      `The data directory ${dir} cannot be created or written (${(error as NodeJS.ErrnoException).code ?? error}). ` +
        "Set CONSOLE_DATA_DIR to a writable directory.",
    );
  }
  let db: Db;
  try {
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

/** Applies, in one transaction each, every migration newer than the database's `user_version`. */
export function migrate(db: Db, migrations: readonly Migration[]): void {
  const ordered = [...migrations].sort((a, b) => a.version - b.version);
  for (const migration of ordered) {
    if (migration.version <= schemaVersion(db)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    })();
  }
}

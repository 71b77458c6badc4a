import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { ConsoleConfig } from "../config.ts";
import { AppError } from "../http/app-error.ts";
import { privateDirectory, privateFile, unusableDataDirectory } from "./private-files.ts";

export type Db = Database.Database;

/** The data directory of `settings` (CONSOLE_DATA_DIR); with none given, config.ts's default folder. */
export function resolveDataDir(
  settings: Pick<ConsoleConfig, "CONSOLE_DATA_DIR"> = { CONSOLE_DATA_DIR: ".console-data" },
): string {
  // The data directory is chosen at run time; without the ignore comment Turbopack traces the whole project into
  // the server output because it cannot tell which files this path may reach.
  return path.resolve(/*turbopackIgnore: true*/ settings.CONSOLE_DATA_DIR);
}

/**
 * Opens (creating if needed) a SQLite database in WAL mode; sqliteStore migrates it before its first query. The
 * directory is made 0700 and the database 0600 before SQLite opens it: SQLite creates its WAL and SHM files with
 * the database's own mode.
 * A data directory that cannot be created or written, or a file that is not a database, is a start-up error
 * that names the path and what to do, never a stack trace.
 */
export function openDatabase(file: string): Db {
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
  } catch (error) {
    throw unopenableDatabase(file, error);
  }
  return db;
}

/** The start-up error for a SQLite database that cannot be opened or migrated: the file and what to do. */
export function unopenableDatabase(file: string, error: unknown): AppError {
  return new AppError(
    "internal",
    `The database ${file} cannot be opened (${(error as Error).message}). ` +
      "Restore it from a backup (npm run backup makes one) or move it away to start empty.",
  );
}

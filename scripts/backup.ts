/**
 * Copies every SQLite database in the console's data directory (CONSOLE_DATA_DIR, default .console-data) with
 * SQLite's online backup API, and, when the console's store is PostgreSQL (CONSOLE_DATABASE_URL), dumps that
 * database with pg_dump; both are consistent while consoles keep running and writing:
 *   npm run backup                      -> <data dir>/backups/<name>-<UTC timestamp>.db (and console-<stamp>.dump)
 *   npm run backup -- --out /some/dir
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { consoleConfig } from "../server/config.ts";
import { resolveDataDir } from "../server/store/database.ts";
import { privateDirectory, privateFile, restrictProcessUmask } from "../server/store/private-files.ts";
import { dumpPostgres } from "./backup/postgres-dump.ts";

const sqliteHeader = Buffer.from("SQLite format 3\0");

export function isSqliteFile(file: string): boolean {
  const head = Buffer.alloc(sqliteHeader.length);
  const fd = fs.openSync(file, "r");
  try {
    return fs.readSync(fd, head, 0, head.length, 0) === head.length && head.equals(sqliteHeader);
  } finally {
    fs.closeSync(fd);
  }
}

const stampOf = (now: Date) =>
  now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");

/** Backs up the console's data: the SQLite databases of its data directory, and its PostgreSQL store if it has one. */
export async function backupConsole(
  settings: { dataDir: string; databaseUrl?: string },
  outDir: string,
  now = new Date(),
): Promise<string[]> {
  if (!settings.databaseUrl) return backupDataDir(settings.dataDir, outDir, now);
  privateDirectory(outDir);
  const dump = await dumpPostgres(settings.databaseUrl, outDir, stampOf(now));
  const sqlite = fs.existsSync(settings.dataDir)
    ? await backupDataDir(settings.dataDir, outDir, now).catch((error: Error) =>
        /No SQLite databases/.test(error.message) ? [] : Promise.reject(error),
      )
    : [];
  return [dump, ...sqlite];
}

export async function backupDataDir(dataDir: string, outDir: string, now = new Date()): Promise<string[]> {
  if (!fs.existsSync(dataDir)) throw new Error(`The data directory ${dataDir} does not exist; nothing to back up.`);
  privateDirectory(outDir);
  const stamp = stampOf(now);
  const written: string[] = [];
  for (const entry of fs.readdirSync(dataDir, { withFileTypes: true })) {
    const source = path.join(dataDir, entry.name);
    if (!entry.isFile() || entry.name.endsWith("-wal") || entry.name.endsWith("-shm") || !isSqliteFile(source))
      continue;
    const target = path.join(outDir, `${path.parse(entry.name).name}-${stamp}.db`);
    const db = new Database(source, { readonly: true, fileMustExist: true });
    try {
      // A copy of the console's data is as private as the data: created 0600 before SQLite writes into it.
      privateFile(target);
      await db.backup(target);
    } finally {
      db.close();
    }
    written.push(target);
  }
  if (written.length === 0) throw new Error(`No SQLite databases found in ${dataDir}.`);
  return written;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { out: { type: "string" } } });
  restrictProcessUmask();
  const config = consoleConfig();
  const dataDir = resolveDataDir(config);
  backupConsole(
    { dataDir, databaseUrl: config.CONSOLE_DATABASE_URL },
    path.resolve(values.out ?? path.join(dataDir, "backups")),
  )
    .then((files) => {
      for (const file of files) console.log(`Backed up to ${file}`);
    })
    .catch((error: Error) => {
      console.error(`Backup failed: ${error.message}`);
      process.exit(1);
    });
}

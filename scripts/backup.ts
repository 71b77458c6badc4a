/**
 * Copies every SQLite database in the console's data directory (CONSOLE_DATA_DIR, default .console-data) with
 * SQLite's online backup API, which is consistent while the console keeps running and writing:
 *   npm run backup                      -> <data dir>/backups/<name>-<UTC timestamp>.db
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

export async function backupDataDir(dataDir: string, outDir: string, now = new Date()): Promise<string[]> {
  if (!fs.existsSync(dataDir)) throw new Error(`The data directory ${dataDir} does not exist; nothing to back up.`);
  privateDirectory(outDir);
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
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
  const dataDir = resolveDataDir(consoleConfig());
  backupDataDir(dataDir, path.resolve(values.out ?? path.join(dataDir, "backups")))
    .then((files) => {
      for (const file of files) console.log(`Backed up to ${file}`);
    })
    .catch((error: Error) => {
      console.error(`Backup failed: ${error.message}`);
      process.exit(1);
    });
}

import fs from "node:fs";
import path from "node:path";
import { isMainThread } from "node:worker_threads";
import { AppError } from "../http/app-error.ts";

/**
 * The console's data (password hashes, the audit log, datasets, object bytes, keys, backups) is its user's alone:
 * directories 0700, files 0600. Other local users can neither list nor read it.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
const GROUP_AND_OTHERS = 0o077;

/**
 * Makes every file and directory this process creates from now on its user's alone (umask 077), whatever code
 * creates it: SQLite's WAL and SHM files, extracted model files, build scratch space. Worker threads cannot set
 * the process umask; the process they run in set it at start.
 */
export function restrictProcessUmask(): void {
  if (isMainThread) process.umask(GROUP_AND_OTHERS);
}

/** Takes group and other permissions off `entry`; the owner's stay as they are. */
function closeToOthers(entry: string, mode: number) {
  if ((mode & GROUP_AND_OTHERS) !== 0) fs.chmodSync(entry, mode & 0o7777 & ~GROUP_AND_OTHERS);
}

/** Creates `dir` (and missing parents) as 0700; an existing one is closed to group and others. */
export function privateDirectory(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  closeToOthers(dir, fs.statSync(dir).mode);
}

/** Creates `file` empty as 0600 when it does not exist; an existing one (its bytes untouched) is closed to others. */
export function privateFile(file: string): void {
  const fd = fs.openSync(file, "a", PRIVATE_FILE_MODE);
  try {
    closeToOthers(file, fs.fstatSync(fd).mode);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Takes group and other permissions off every directory and file under `dataDir` (and `dataDir` itself), as an
 * older console that created them 0755/0644 left them; the owner's bits (an executable script's) stay. Symbolic
 * links are neither followed nor changed. Returns the entries it changed.
 */
export function repairDataDirModes(dataDir: string): string[] {
  const changed: string[] = [];
  const visit = (entry: string) => {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(entry);
    } catch {
      return; // removed while the walk ran
    }
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & GROUP_AND_OTHERS) !== 0) {
      closeToOthers(entry, stat.mode);
      changed.push(entry);
    }
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
  };
  if (fs.existsSync(dataDir)) visit(dataDir);
  return changed;
}

/**
 * What a process that keeps its data in `dataDir` does at start: umask 077 for whatever it creates, the directory
 * created 0700, and an existing one repaired (repairDataDirModes). Returns the entries it had to close.
 */
export function openPrivateDataDir(dataDir: string): string[] {
  restrictProcessUmask();
  try {
    privateDirectory(dataDir);
    fs.accessSync(dataDir, fs.constants.W_OK);
  } catch (error) {
    throw unusableDataDirectory(dataDir, error);
  }
  return repairDataDirModes(dataDir);
}

/** The start-up error for a data directory that cannot be created or written: the path and what to do. */
export function unusableDataDirectory(dir: string, error: unknown): AppError {
  return new AppError(
    "internal",
    `The data directory ${dir} cannot be created or written (${(error as NodeJS.ErrnoException).code ?? error}). ` +
      "Set CONSOLE_DATA_DIR to a writable directory.",
  );
}

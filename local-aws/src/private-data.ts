import fs from "node:fs";
import path from "node:path";
import { isMainThread } from "node:worker_threads";

/**
 * The control plane's data (object bytes, credentials, build scratch, its database) is its user's alone:
 * directories 0700, files 0600, as the console keeps its own.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
const GROUP_AND_OTHERS = 0o077;

function closeToOthers(entry: string, mode: number): void {
  if ((mode & GROUP_AND_OTHERS) !== 0) fs.chmodSync(entry, mode & 0o7777 & ~GROUP_AND_OTHERS);
}

/** Creates `dir` (and missing parents) as 0700; an existing one is closed to group and others. */
export function privateDirectory(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  closeToOthers(dir, fs.statSync(dir).mode);
}

/** Creates `file` empty as 0600 when missing; an existing one (its bytes untouched) is closed to others. */
export function privateFile(file: string): void {
  const fd = fs.openSync(file, "a", PRIVATE_FILE_MODE);
  try {
    closeToOthers(file, fs.fstatSync(fd).mode);
  } finally {
    fs.closeSync(fd);
  }
}

/** Closes every directory and file under `dir` that an older version left 0755/0644; links are left alone. */
function closeTree(entry: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(entry);
  } catch {
    return; // removed while the walk ran
  }
  if (stat.isSymbolicLink()) return;
  closeToOthers(entry, stat.mode);
  if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) closeTree(path.join(entry, name));
}

/**
 * What the control plane does with its data directory at start: umask 077 for whatever it creates from now on
 * (SQLite's WAL files, extracted models, build scratch), the directory created 0700 and an existing one closed.
 * A directory that cannot be created or written is an error naming it.
 */
export function openPrivateDataDir(dataDir: string): void {
  if (isMainThread) process.umask(GROUP_AND_OTHERS);
  try {
    privateDirectory(dataDir);
    fs.accessSync(dataDir, fs.constants.W_OK);
  } catch (error) {
    throw new Error(
      `The local AWS data directory ${dataDir} cannot be created or written (${(error as NodeJS.ErrnoException).code ?? error}).`,
    );
  }
  closeTree(dataDir);
}

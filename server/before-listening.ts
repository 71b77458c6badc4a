import { assertSafeBind } from "./auth/bind.ts";
import { usersConfigured } from "./auth/users.ts";
import type { ConsoleConfig } from "./config.ts";
import { consoleDatabasePath } from "./store/console-database.ts";
import { openDatabase, resolveDataDir } from "./store/database.ts";
import { openPrivateDataDir } from "./store/private-files.ts";

/**
 * What a console process does before it listens, under `npm start` and in the console image alike: the data
 * directory made private (0700, umask 077, entries others could read closed), the database opened at the newest
 * schema, and the address checked against the users configured (assertSafeBind). Throws with the reason and the fix;
 * returns the data directory.
 */
export function prepareToListen(config: ConsoleConfig, log: (line: string) => void = console.log): string {
  const dataDir = resolveDataDir(config);
  const repaired = openPrivateDataDir(dataDir);
  if (repaired.length > 0) {
    log(`Closed ${repaired.length} entries of ${dataDir} to other users (the data directory is 0700, its files 0600)`);
  }
  const db = openDatabase(consoleDatabasePath(config));
  try {
    assertSafeBind(config.HOST, usersConfigured(db, config), config);
  } finally {
    db.close();
  }
  return dataDir;
}

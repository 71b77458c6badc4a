import { assertSafeBind } from "./auth/bind.ts";
import { usersConfigured } from "./auth/users.ts";
import type { ConsoleConfig } from "./config.ts";
import { openConsoleStore } from "./store/console-database.ts";
import { resolveDataDir } from "./store/database.ts";
import { openPrivateDataDir } from "./store/private-files.ts";

/**
 * What a console process does before it listens, under `npm start` and in the console image alike: the data
 * directory made private (0700, umask 077, entries others could read closed), the store (SQLite, or PostgreSQL at
 * CONSOLE_DATABASE_URL) opened and brought to the newest schema, and the address checked against the users configured (assertSafeBind). Throws with the reason and the fix;
 * returns the data directory.
 */
export async function prepareToListen(
  config: ConsoleConfig,
  log: (line: string) => void = console.log,
): Promise<string> {
  const dataDir = resolveDataDir(config);
  const repaired = openPrivateDataDir(dataDir);
  if (repaired.length > 0) {
    log(`Closed ${repaired.length} entries of ${dataDir} to other users (the data directory is 0700, its files 0600)`);
  }
  const store = openConsoleStore(config);
  try {
    assertSafeBind(config.HOST, await usersConfigured(store, config), config);
  } finally {
    await store.destroy();
  }
  return dataDir;
}

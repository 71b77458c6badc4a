import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Role } from "@/contract/auth/session.ts";
import { hashPassword } from "@/server/auth/passwords.ts";
import { sessionKey, signSession } from "@/server/auth/session.ts";
import { insertUser } from "@/server/auth/users.ts";
import { consoleConfig } from "@/server/config.ts";
import { closeConsoleStore, consoleStore } from "@/server/store/console-database.ts";

export const consoleOrigin = "http://127.0.0.1:3000";

/** Points the console at a fresh data directory (and a fixed session key) for one test file; returns the clean-up. */
export function useTemporaryConsole(): { dataDir: string; restore: () => Promise<void> } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "console-security-"));
  const saved = { ...process.env };
  process.env.CONSOLE_DATA_DIR = dataDir;
  process.env.CONSOLE_SESSION_SECRET = "test-session-secret-that-is-long-enough-0123456789";
  delete process.env.CONSOLE_USERS;
  delete process.env.CONSOLE_USERS_FILE;
  delete process.env.CONSOLE_OIDC_ISSUER;
  delete process.env.CONSOLE_PUBLIC_ORIGIN;
  return {
    dataDir,
    async restore() {
      await closeConsoleStore();
      process.env = saved;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function addUser(name: string, role: Role, password = `${name}-password-long`): Promise<void> {
  await insertUser(consoleStore(), { name, role, passwordHash: await hashPassword(password) });
}

export async function sessionCookieFor(name: string, role: Role): Promise<string> {
  return `dc_session=${await signSession({ name, role, source: "password" }, sessionKey(consoleConfig()))}`;
}

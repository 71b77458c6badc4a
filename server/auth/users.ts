import fs from "node:fs";
import type { Role } from "../../contract/auth/session.ts";
import type { ConsoleConfig } from "../config.ts";
import { AppError } from "../http/app-error.ts";
import type { Db } from "../store/database.ts";
import { type EnvUser, parseUserList, userNameSchema } from "./user-list.ts";

export { type EnvUser, userNameSchema } from "./user-list.ts";

/** The settings that name the users configured outside the database. */
export type UserSettings = Pick<ConsoleConfig, "CONSOLE_USERS" | "CONSOLE_USERS_FILE" | "CONSOLE_OIDC_ISSUER">;

export interface StoredUser {
  name: string;
  role: Role;
  /** An argon2id hash, or (for an env user configured with a plain password) the password to compare with. */
  credential: { kind: "hash"; hash: string } | { kind: "plain"; password: string };
  source: "env" | "database";
}

const parsedEnv = new Map<string, EnvUser[]>();

/**
 * Users from the environment: `CONSOLE_USERS` (a JSON array) or `CONSOLE_USERS_FILE` (a path to one), read on each
 * call so an edited file takes effect without a restart.
 */
export function envUsers(settings: UserSettings): EnvUser[] {
  let raw = settings.CONSOLE_USERS;
  let origin = "CONSOLE_USERS";
  if (!raw && settings.CONSOLE_USERS_FILE) {
    origin = `CONSOLE_USERS_FILE (${settings.CONSOLE_USERS_FILE})`;
    try {
      raw = fs.readFileSync(settings.CONSOLE_USERS_FILE, "utf8");
    } catch (error) {
      throw new Error(`${origin} cannot be read: ${(error as NodeJS.ErrnoException).code ?? error}`);
    }
  }
  if (!raw) return [];
  const cached = parsedEnv.get(raw);
  if (cached) return cached;
  let users: EnvUser[];
  try {
    users = parseUserList(raw);
  } catch (error) {
    throw new Error(`${origin} ${(error as Error).message}.`);
  }
  parsedEnv.set(raw, users);
  return users;
}

/** Any way to sign in (env users, stored users, single sign-on) takes the console out of local-operator mode. */
export function usersConfigured(db: Db, settings: UserSettings): boolean {
  if (envUsers(settings).length > 0 || settings.CONSOLE_OIDC_ISSUER) return true;
  const row = db.prepare("SELECT COUNT(*) AS count FROM users").get() as { count: number };
  return row.count > 0;
}

/** Environment users win over stored ones of the same name, so a deployment's configuration is authoritative. */
export function findUser(db: Db, name: string, settings: UserSettings): StoredUser | null {
  const fromEnv = envUsers(settings).find((user) => user.name === name);
  if (fromEnv) {
    return {
      name: fromEnv.name,
      role: fromEnv.role,
      credential: fromEnv.passwordHash
        ? { kind: "hash", hash: fromEnv.passwordHash }
        : { kind: "plain", password: fromEnv.password! },
      source: "env",
    };
  }
  const row = db.prepare("SELECT name, role, password_hash FROM users WHERE name = ?").get(name) as
    | { name: string; role: Role; password_hash: string }
    | undefined;
  if (!row) return null;
  return { name: row.name, role: row.role, credential: { kind: "hash", hash: row.password_hash }, source: "database" };
}

export interface UserSummary {
  name: string;
  role: Role;
  source: "env" | "database";
}

export function listUsers(db: Db, settings: UserSettings): UserSummary[] {
  const stored = db.prepare("SELECT name, role FROM users ORDER BY name").all() as { name: string; role: Role }[];
  const fromEnv = envUsers(settings).map((user) => ({ name: user.name, role: user.role, source: "env" as const }));
  const shadowed = new Set(fromEnv.map((user) => user.name));
  return [
    ...fromEnv,
    ...stored.filter((user) => !shadowed.has(user.name)).map((u) => ({ ...u, source: "database" as const })),
  ];
}

export function insertUser(db: Db, user: { name: string; role: Role; passwordHash: string }): void {
  const now = new Date().toISOString();
  try {
    db.prepare("INSERT INTO users (name, role, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?)").run(
      userNameSchema.parse(user.name),
      user.role,
      user.passwordHash,
      now,
      now,
    );
  } catch (error) {
    if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
      throw new AppError("conflict", `A user named ${user.name} already exists.`);
    }
    throw error;
  }
}

export function updateUser(db: Db, name: string, change: { role?: Role; passwordHash?: string }): void {
  const result = db
    .prepare(
      "UPDATE users SET role = coalesce(?, role), password_hash = coalesce(?, password_hash), updated_at = ? WHERE name = ?",
    )
    .run(change.role ?? null, change.passwordHash ?? null, new Date().toISOString(), name);
  if (result.changes === 0) throw new AppError("not_found", `No stored user is named ${name}.`);
}

export function deleteUser(db: Db, name: string): void {
  const result = db.prepare("DELETE FROM users WHERE name = ?").run(name);
  if (result.changes === 0) throw new AppError("not_found", `No stored user is named ${name}.`);
}

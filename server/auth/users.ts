import fs from "node:fs";
import type { Role } from "../../contract/auth/session.ts";
import type { ConsoleConfig } from "../config.ts";
import { AppError } from "../http/app-error.ts";
import type { Store } from "../store/store.ts";
import { isUniqueViolation } from "../store/unique-violation.ts";
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
export async function usersConfigured(store: Store, settings: UserSettings): Promise<boolean> {
  if (envUsers(settings).length > 0 || settings.CONSOLE_OIDC_ISSUER) return true;
  const row = await store.selectFrom("users").select("name").limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Environment users win over stored ones of the same name, so a deployment's configuration is authoritative. */
export async function findUser(store: Store, name: string, settings: UserSettings): Promise<StoredUser | null> {
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
  const row = await store
    .selectFrom("users")
    .select(["name", "role", "password_hash"])
    .where("name", "=", name)
    .executeTakeFirst();
  if (!row) return null;
  return { name: row.name, role: row.role, credential: { kind: "hash", hash: row.password_hash }, source: "database" };
}

export interface UserSummary {
  name: string;
  role: Role;
  source: "env" | "database";
}

export async function listUsers(store: Store, settings: UserSettings): Promise<UserSummary[]> {
  const stored = await store.selectFrom("users").select(["name", "role"]).orderBy("name").execute();
  const fromEnv = envUsers(settings).map((user) => ({ name: user.name, role: user.role, source: "env" as const }));
  const shadowed = new Set(fromEnv.map((user) => user.name));
  return [
    ...fromEnv,
    ...stored.filter((user) => !shadowed.has(user.name)).map((u) => ({ ...u, source: "database" as const })),
  ];
}

export async function insertUser(store: Store, user: { name: string; role: Role; passwordHash: string }) {
  const now = new Date().toISOString();
  try {
    await store
      .insertInto("users")
      .values({
        name: userNameSchema.parse(user.name),
        role: user.role,
        password_hash: user.passwordHash,
        created_at: now,
        updated_at: now,
      })
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("conflict", `A user named ${user.name} already exists.`);
    }
    throw error;
  }
}

export async function updateUser(store: Store, name: string, change: { role?: Role; passwordHash?: string }) {
  const result = await store
    .updateTable("users")
    .set({
      ...(change.role ? { role: change.role } : {}),
      ...(change.passwordHash ? { password_hash: change.passwordHash } : {}),
      updated_at: new Date().toISOString(),
    })
    .where("name", "=", name)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw new AppError("not_found", `No stored user is named ${name}.`);
}

export async function deleteUser(store: Store, name: string): Promise<void> {
  const result = await store.deleteFrom("users").where("name", "=", name).executeTakeFirst();
  if (result.numDeletedRows === 0n) throw new AppError("not_found", `No stored user is named ${name}.`);
}

import fs from "node:fs";
import { z } from "zod";
import { type Role, roleSchema } from "../../contract/auth/session.ts";
import { AppError } from "../http/app-error.ts";
import type { Db } from "../store/database.ts";
import type { Env } from "./env.ts";

export const userNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9._@-]{1,64}$/, "a user name is 1-64 letters, digits or . _ @ -");

/**
 * Users from the environment: `CONSOLE_USERS` (a JSON array) or `CONSOLE_USERS_FILE` (a path to one), each
 * `{name, role, passwordHash}` with an argon2id hash from `npm run users -- hash`. A plain `password` is
 * accepted for tests and throwaway setups only; it is hashed in memory when first used.
 */
const envUserSchema = z
  .object({
    name: userNameSchema,
    role: roleSchema,
    passwordHash: z.string().startsWith("$argon2id$", "passwordHash must be an argon2id hash").optional(),
    password: z.string().min(1).optional(),
  })
  .strict()
  .refine((user) => (user.passwordHash === undefined) !== (user.password === undefined), {
    message: "give each user exactly one of passwordHash or password",
  });
export type EnvUser = z.infer<typeof envUserSchema>;

export interface StoredUser {
  name: string;
  role: Role;
  /** An argon2id hash, or (for an env user configured with a plain password) the password to compare with. */
  credential: { kind: "hash"; hash: string } | { kind: "plain"; password: string };
  source: "env" | "database";
}

const parsedEnv = new Map<string, EnvUser[]>();

export function envUsers(env: Env = process.env): EnvUser[] {
  let raw = env.CONSOLE_USERS;
  let origin = "CONSOLE_USERS";
  if (!raw && env.CONSOLE_USERS_FILE) {
    origin = `CONSOLE_USERS_FILE (${env.CONSOLE_USERS_FILE})`;
    try {
      raw = fs.readFileSync(env.CONSOLE_USERS_FILE, "utf8");
    } catch (error) {
      throw new Error(`${origin} cannot be read: ${(error as NodeJS.ErrnoException).code ?? error}`);
    }
  }
  if (!raw) return [];
  const cached = parsedEnv.get(raw);
  if (cached) return cached;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error(`${origin} is not valid JSON: expected [{"name", "role", "passwordHash"}].`);
  }
  const parsed = z.array(envUserSchema).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${origin} is invalid at ${issue?.path.join(".") || "top level"}: ${issue?.message}`);
  }
  parsedEnv.set(raw, parsed.data);
  return parsed.data;
}

/** Any way to sign in (env users, stored users, single sign-on) takes the console out of local-operator mode. */
export function usersConfigured(db: Db, env: Env = process.env): boolean {
  if (envUsers(env).length > 0 || env.CONSOLE_OIDC_ISSUER) return true;
  const row = db.prepare("SELECT COUNT(*) AS count FROM users").get() as { count: number };
  return row.count > 0;
}

/** Environment users win over stored ones of the same name, so a deployment's configuration is authoritative. */
export function findUser(db: Db, name: string, env: Env = process.env): StoredUser | null {
  const fromEnv = envUsers(env).find((user) => user.name === name);
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

export function listUsers(db: Db, env: Env = process.env): UserSummary[] {
  const stored = db.prepare("SELECT name, role FROM users ORDER BY name").all() as { name: string; role: Role }[];
  const fromEnv = envUsers(env).map((user) => ({ name: user.name, role: user.role, source: "env" as const }));
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

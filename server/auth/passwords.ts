import { timingSafeEqual } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import type { Role } from "../../contract/auth/session.ts";
import type { Store } from "../store/store.ts";
import { findUser, type UserSettings } from "./users.ts";

export const minimumPasswordLength = 12;

/** argon2id (the library's default algorithm) with its default cost: 19 MiB, 2 passes. */
export function hashPassword(password: string): Promise<string> {
  if (password.length < minimumPasswordLength) {
    throw new Error(`A password needs at least ${minimumPasswordLength} characters.`);
  }
  return hash(password);
}

let decoyHash: Promise<string> | undefined;

/**
 * The user these credentials belong to, or null. An unknown name still costs one argon2 verification, so the
 * response time does not tell which names exist.
 */
export async function verifyCredentials(
  store: Store,
  name: string,
  password: string,
  settings: UserSettings,
): Promise<{ name: string; role: Role } | null> {
  const user = await findUser(store, name, settings);
  if (!user) {
    decoyHash ??= hash("decoy password that matches nothing");
    await verify(await decoyHash, password).catch(() => false);
    return null;
  }
  const credential = user.credential;
  const matches =
    credential.kind === "hash"
      ? await verify(credential.hash, password).catch(() => false)
      : equalStrings(credential.password, password);
  return matches ? { name: user.name, role: user.role } : null;
}

function equalStrings(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

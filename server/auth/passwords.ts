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

/** argon2's verification of a password against an encoded hash. */
export type PasswordVerifier = (hash: string, password: string) => Promise<boolean>;

let decoyHash: Promise<string> | undefined;

/** A hash of hashPassword's cost that matches nothing: verified when there is no such hash to verify. */
function decoy(): Promise<string> {
  decoyHash ??= hash("decoy password that matches nothing");
  return decoyHash;
}

/** A hash's algorithm, version and cost (`argon2id$v=19$m=19456,t=2,p=1`): what its verification costs. */
export function hashCost(encoded: string): string {
  return encoded.split("$").slice(1, 4).join("$");
}

/**
 * The user these credentials belong to, or null. Every attempt costs one argon2 verification at hashPassword's
 * cost, so the response time does not tell which names exist: an unknown name, a user with a plain password and
 * one whose hash has another cost are verified against a decoy of that cost too (SECURITY.md, Users and sessions).
 */
export async function verifyCredentials(
  store: Store,
  name: string,
  password: string,
  settings: UserSettings,
  verifier: PasswordVerifier = verify,
): Promise<{ name: string; role: Role } | null> {
  const user = await findUser(store, name, settings);
  const standard = await decoy();
  if (user?.credential.kind !== "hash" || hashCost(user.credential.hash) !== hashCost(standard)) {
    await verifier(standard, password).catch(() => false);
  }
  if (!user) return null;
  const credential = user.credential;
  const matches =
    credential.kind === "hash"
      ? await verifier(credential.hash, password).catch(() => false)
      : equalStrings(credential.password, password);
  return matches ? { name: user.name, role: user.role } : null;
}

function equalStrings(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

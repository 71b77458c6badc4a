import { isIP } from "node:net";
import type { ConsoleConfig } from "../config.ts";

/** Loopback names and addresses: the console is then reachable only from this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (bare === "localhost" || bare.endsWith(".localhost")) return true;
  if (isIP(bare) === 4) return bare.startsWith("127.");
  return bare === "::1" || bare === "0:0:0:0:0:0:0:1" || bare.startsWith("::ffff:127.");
}

/**
 * Throws, with the reason and the fix, when listening on `host` would expose the console unsafely: with no
 * users configured every caller is an operator holding this machine's AWS credentials, so only loopback is
 * allowed; beyond loopback, sessions need a signing key that survives restarts and is not guessable.
 * The start script calls this before it binds.
 */
export function assertSafeBind(
  host: string,
  usersConfigured: boolean,
  settings: Pick<ConsoleConfig, "CONSOLE_SESSION_SECRET">,
): void {
  if (isLoopbackHost(host)) return;
  if (!usersConfigured) {
    throw new Error(
      `Refusing to listen on ${host}: no console users are configured, so anyone who can reach this address ` +
        "would act as an operator with this machine's AWS credentials. Listen on 127.0.0.1 (the local-mode " +
        "default), or add a user first: npm run users -- add <name> --role operator (or set CONSOLE_USERS).",
    );
  }
  const secret = settings.CONSOLE_SESSION_SECRET ?? "";
  if (secret.length < 32) {
    throw new Error(
      `Refusing to listen on ${host}: CONSOLE_SESSION_SECRET is ${secret ? "shorter than 32 characters" : "not set"}. ` +
        "Sessions beyond loopback need a stable random signing key, e.g. CONSOLE_SESSION_SECRET=$(openssl rand -base64 48).",
    );
  }
}

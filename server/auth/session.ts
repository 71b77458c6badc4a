import { randomBytes, randomUUID } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";
import { z } from "zod";
import { roleSchema } from "../../contract/auth/session.ts";
import type { ConsoleConfig } from "../config.ts";
import { type ForwardingSettings, forwardedHeadersTrusted } from "../http/forwarded.ts";

export const sessionCookieName = "dc_session";
export const sessionTtlSeconds = 12 * 60 * 60;

const sessionSchema = z.object({
  name: z.string().min(1),
  role: roleSchema,
  source: z.enum(["password", "oidc"]),
});
export type Session = z.infer<typeof sessionSchema>;

const issuer = "decision-console";
const minimumSecretLength = 32;

/**
 * The key that signs session cookies. `CONSOLE_SESSION_SECRET` (at least 32 characters) in any real deployment;
 * on loopback without it, a random key per process, so sessions end when the console restarts. The key lives on
 * `globalThis` because Next.js bundles the proxy and the route handlers separately in one process.
 */
export function sessionKey(settings: Pick<ConsoleConfig, "CONSOLE_SESSION_SECRET">): Uint8Array {
  const configured = settings.CONSOLE_SESSION_SECRET;
  if (configured) {
    if (configured.length < minimumSecretLength) {
      throw new Error(`CONSOLE_SESSION_SECRET must be at least ${minimumSecretLength} characters long.`);
    }
    return new TextEncoder().encode(configured);
  }
  const store = globalThis as { __consoleSessionKey?: Uint8Array };
  store.__consoleSessionKey ??= new Uint8Array(randomBytes(32));
  return store.__consoleSessionKey;
}

export async function signSession(session: Session, key: Uint8Array, ttlSeconds = sessionTtlSeconds): Promise<string> {
  return new SignJWT({ role: session.role, source: session.source })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(session.name)
    .setJti(randomUUID())
    .setIssuer(issuer)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(key);
}

export interface VerifiedSession {
  session: Session;
  /** The token's id, which sign-out revokes. */
  id: string;
  expiresAt: Date;
}

/** The session a cookie carries, with its id and expiry, or null when missing, forged, expired or malformed. */
export async function verifySessionToken(token: string | undefined, key: Uint8Array): Promise<VerifiedSession | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, key, { issuer, algorithms: ["HS256"] });
    const parsed = sessionSchema.safeParse({ name: payload.sub, role: payload.role, source: payload.source });
    if (!parsed.success || !payload.jti || !payload.exp) return null;
    return { session: parsed.data, id: payload.jti, expiresAt: new Date(payload.exp * 1000) };
  } catch {
    return null;
  }
}

export async function verifySession(token: string | undefined, key: Uint8Array): Promise<Session | null> {
  return (await verifySessionToken(token, key))?.session ?? null;
}

/**
 * True when the browser reached the console over TLS: directly, or through a TLS-terminating load balancer whose
 * `X-Forwarded-Proto` is trusted (`forwardedHeadersTrusted`).
 */
export function isTls(request: Request, settings: ForwardingSettings): boolean {
  if (new URL(request.url).protocol === "https:") return true;
  if (!forwardedHeadersTrusted(request, settings)) return false;
  return request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
}

/**
 * SameSite=Lax rather than Strict: with Strict a sign-in that returns from an OIDC provider (a cross-site
 * navigation) would land without its cookie. Cross-site mutations are refused by the same-origin check instead.
 */
export function sessionCookie(
  request: Request,
  token: string,
  settings: ForwardingSettings,
  maxAge = sessionTtlSeconds,
): string {
  const parts = [`${sessionCookieName}=${token}`, "Path=/", "HttpOnly", "SameSite=Lax", `Max-Age=${maxAge}`];
  if (isTls(request, settings)) parts.push("Secure");
  return parts.join("; ");
}

export function clearedSessionCookie(request: Request, settings: ForwardingSettings): string {
  return sessionCookie(request, "", settings, 0);
}

/** A cookie's value; undefined when absent or not valid percent-encoding (a mangled cookie is no cookie). */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const pair of header.split(";")) {
    const at = pair.indexOf("=");
    if (at > 0 && pair.slice(0, at).trim() === name) {
      try {
        return decodeURIComponent(pair.slice(at + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

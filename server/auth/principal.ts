import type { Principal, Role } from "../../contract/auth/session.ts";
import { refusalLog, refusalOf } from "../audit/refusals.ts";
import { type ConsoleConfig, consoleConfig } from "../config.ts";
import { AppError } from "../http/app-error.ts";
import { consoleStore } from "../store/console-database.ts";
import type { Store } from "../store/store.ts";
import { isLoopbackHost } from "./bind.ts";
import { isRevoked } from "./revocation.ts";
import { grants } from "./roles.ts";
import { readCookie, sessionCookieName, sessionKey, verifySessionToken } from "./session.ts";
import { findUser, usersConfigured } from "./users.ts";

export interface AuthContext {
  store: Store;
  config: ConsoleConfig;
}

export const localOperator: Principal = { name: "local", role: "operator", source: "local" };

export function defaultAuthContext(): AuthContext {
  return { store: consoleStore(), config: consoleConfig() };
}

/**
 * Who is calling. With no users configured everyone is the local operator, but only under a loopback Host
 * header: a page on another site that rebinds its DNS name to 127.0.0.1 still sends its own name as Host.
 * A password user's role is read from the store on every request, so removing a user or changing a role
 * takes effect at once rather than when the cookie expires; a signed-out session is refused everywhere.
 */
export async function principalOf(
  request: Request,
  context: AuthContext = defaultAuthContext(),
): Promise<Principal | null> {
  if (!(await usersConfigured(context.store, context.config))) {
    const host = new URL(`http://${request.headers.get("host") ?? new URL(request.url).host}`).hostname;
    return isLoopbackHost(host) ? localOperator : null;
  }
  const verified = await verifySessionToken(readCookie(request, sessionCookieName), sessionKey(context.config));
  if (!verified || (await isRevoked(context.store, verified.id))) return null;
  const { session } = verified;
  if (session.source === "oidc") return session;
  const user = await findUser(context.store, session.name, context.config);
  return user ? { name: user.name, role: user.role, source: "password" } : null;
}

/** The caller if it holds at least `role`; otherwise a 401 (not signed in) or 403 (signed in, too little) AppError. */
export async function requireRole(
  request: Request,
  role: Role,
  context: AuthContext = defaultAuthContext(),
): Promise<Principal> {
  return holding(request, role, context, (principal) => `This needs the ${role} role; ${whoIs(principal)}.`);
}

/**
 * `requireRole` for what a request's body asks beyond its route's role; `purpose` says why in the 403, e.g.
 * "An evaluation in a batch transform job starts paid instances".
 */
export async function requireRoleFor(
  request: Request,
  role: Role,
  purpose: string,
  context: AuthContext = defaultAuthContext(),
): Promise<Principal> {
  return holding(request, role, context, (principal) => `${purpose}: it needs the ${role} role; ${whoIs(principal)}.`);
}

async function holding(
  request: Request,
  role: Role,
  context: AuthContext,
  refusal: (principal: Principal) => string,
): Promise<Principal> {
  const principal = await principalOf(request, context);
  if (!principal) throw new AppError("unauthenticated", `Sign in first: this needs the ${role} role.`);
  if (!grants(principal.role, role)) {
    const message = refusal(principal);
    await refusalLog().record(context.store, refusalOf(request, context.config, principal.name, 403, message));
    throw new AppError("forbidden", message);
  }
  return principal;
}

function whoIs(principal: Principal): string {
  return `${principal.name} is a ${principal.role}`;
}

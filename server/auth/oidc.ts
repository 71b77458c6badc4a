import { jwtVerify, SignJWT } from "jose";
import * as client from "openid-client";
import { z } from "zod";
import { safeNext } from "../../contract/auth/safe-next.ts";
import type { Role } from "../../contract/auth/session.ts";
import type { ConsoleConfig } from "../config.ts";
import { AppError } from "../http/app-error.ts";
import { isLoopbackHost } from "./bind.ts";
import type { Session } from "./session.ts";

/**
 * Optional single sign-on (e.g. Amazon Cognito) with the authorization code flow and PKCE. Configured by
 * `CONSOLE_OIDC_ISSUER`, `CONSOLE_OIDC_CLIENT_ID`, `CONSOLE_OIDC_CLIENT_SECRET` (omit for a public client),
 * `CONSOLE_OIDC_REDIRECT_URI` (…/api/auth/oidc/callback) and `CONSOLE_OIDC_ROLE_CLAIM` (default `cognito:groups`):
 * a claim whose value (a string or a list) contains `operator` or `viewer`. Anyone with neither is refused.
 */
export interface OidcSettings {
  issuer: URL;
  clientId: string;
  clientSecret?: string;
  redirectUri: URL;
  roleClaim: string;
}

export type OidcConfig = Pick<
  ConsoleConfig,
  | "CONSOLE_OIDC_ISSUER"
  | "CONSOLE_OIDC_CLIENT_ID"
  | "CONSOLE_OIDC_CLIENT_SECRET"
  | "CONSOLE_OIDC_REDIRECT_URI"
  | "CONSOLE_OIDC_ROLE_CLAIM"
>;

/** Single sign-on's settings, or null when it is not configured; `config.ts` has checked that they are complete. */
export function oidcSettings(config: OidcConfig): OidcSettings | null {
  const { CONSOLE_OIDC_ISSUER: issuer, CONSOLE_OIDC_CLIENT_ID: clientId, CONSOLE_OIDC_REDIRECT_URI: redirect } = config;
  if (!issuer) return null;
  if (!clientId || !redirect) {
    throw new Error(
      "OIDC sign-in is half configured: CONSOLE_OIDC_CLIENT_ID and CONSOLE_OIDC_REDIRECT_URI must be set.",
    );
  }
  return {
    issuer: new URL(issuer),
    clientId,
    clientSecret: config.CONSOLE_OIDC_CLIENT_SECRET,
    redirectUri: new URL(redirect),
    roleClaim: config.CONSOLE_OIDC_ROLE_CLAIM,
  };
}

const configurations = new Map<string, Promise<client.Configuration>>();

function discover(settings: OidcSettings): Promise<client.Configuration> {
  const key = `${settings.issuer}|${settings.clientId}`;
  let found = configurations.get(key);
  if (!found) {
    // Plain HTTP only for an issuer on loopback (a test issuer); anything else must be HTTPS.
    const insecure = settings.issuer.protocol === "http:" && isLoopbackHost(settings.issuer.hostname);
    found = client.discovery(
      settings.issuer,
      settings.clientId,
      undefined,
      settings.clientSecret ? client.ClientSecretPost(settings.clientSecret) : client.None(),
      insecure ? { execute: [client.allowInsecureRequests] } : undefined,
    );
    found.catch(() => configurations.delete(key));
    configurations.set(key, found);
  }
  return found;
}

const flowSchema = z.object({ verifier: z.string(), state: z.string(), nonce: z.string(), next: z.string() });
export const oidcFlowCookieName = "dc_oidc_flow";

/** Where to send the browser to sign in, and a short-lived signed cookie that remembers this attempt's secrets. */
export async function beginSignIn(
  settings: OidcSettings,
  key: Uint8Array,
  next: string,
): Promise<{ location: URL; flowToken: string }> {
  const config = await discover(settings);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const location = client.buildAuthorizationUrl(config, {
    redirect_uri: settings.redirectUri.toString(),
    scope: "openid email profile",
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  const flowToken = await new SignJWT({ verifier, state, nonce, next: safeNext(next, settings.redirectUri.origin) })
    .setProtectedHeader({ alg: "HS256" })
    .setExpirationTime("10m")
    .sign(key);
  return { location, flowToken };
}

/** Exchanges the provider's code for tokens, checks state, nonce and PKCE, and turns the ID token into a session. */
export async function completeSignIn(
  settings: OidcSettings,
  key: Uint8Array,
  flowToken: string | undefined,
  callbackUrl: URL,
): Promise<{ session: Session; next: string }> {
  if (!flowToken)
    throw new AppError("bad_request", "The sign-in attempt expired or was started in another browser; start again.");
  let flow: z.infer<typeof flowSchema>;
  try {
    flow = flowSchema.parse((await jwtVerify(flowToken, key, { algorithms: ["HS256"] })).payload);
  } catch {
    throw new AppError("bad_request", "The sign-in attempt expired or was tampered with; start again.");
  }
  const config = await discover(settings);
  // The provider redirects to the public callback address; rebuild it so the check does not depend on proxies.
  const current = new URL(settings.redirectUri);
  current.search = callbackUrl.search;
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  try {
    tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
  } catch (error) {
    throw new AppError("unauthenticated", `Single sign-on failed: ${(error as Error).message}`);
  }
  const claims = tokens.claims();
  if (!claims) throw new AppError("unauthenticated", "Single sign-on returned no ID token.");
  const role = roleFromClaim(claims[settings.roleClaim]);
  const name = oidcName(claims);
  if (!role) {
    throw new AppError(
      "forbidden",
      `${name} signed in, but the ${settings.roleClaim} claim grants no console role (operator or viewer).`,
    );
  }
  return { session: { name, role, source: "oidc" }, next: safeNext(flow.next, settings.redirectUri.origin) };
}

/**
 * The console's name for a single-sign-on identity, from what the provider vouches for only: `sso:<email>` when its
 * `email_verified` claim is true, else `sso-subject:<sub>` (the provider's own id for the user). A password user's
 * name cannot hold `:` (userNameSchema), so the two never share a name in the audit log or in revocations.
 */
export function oidcName(claims: { sub: string; email?: unknown; email_verified?: unknown }): string {
  return claims.email_verified === true && typeof claims.email === "string" && claims.email !== ""
    ? `sso:${claims.email}`
    : `sso-subject:${claims.sub}`;
}

export function roleFromClaim(value: unknown): Role | null {
  const values = Array.isArray(value) ? value.map(String) : typeof value === "string" ? value.split(/[\s,]+/) : [];
  if (values.includes("operator")) return "operator";
  if (values.includes("viewer")) return "viewer";
  return null;
}

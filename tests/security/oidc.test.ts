import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as callbackRoute } from "@/app/api/auth/oidc/callback/route.ts";
import { GET as startRoute } from "@/app/api/auth/oidc/start/route.ts";
import { principalOf } from "@/server/auth/principal.ts";
import { consoleOrigin, useTemporaryConsole } from "./support.ts";

/**
 * Single sign-on against a loopback OpenID provider written here: discovery, JWKS, an authorize endpoint that
 * signs the user in at once, and a token endpoint that checks the client secret and the PKCE verifier.
 */
interface PendingCode {
  challenge: string;
  nonce: string;
  claims: Record<string, unknown>;
}

let issuer: string;
let server: http.Server;
let temp: ReturnType<typeof useTemporaryConsole>;
let nextClaims: Record<string, unknown> = {};
const codes = new Map<string, PendingCode>();
const clientId = "console-test";
const clientSecret = "client-secret-for-tests";

async function startProvider(): Promise<void> {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", issuer);
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === "/.well-known/openid-configuration") {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["client_secret_post"],
      });
    }
    if (url.pathname === "/jwks") return json(200, { keys: [jwk] });
    if (url.pathname === "/authorize") {
      const code = randomBytes(16).toString("hex");
      codes.set(code, {
        challenge: url.searchParams.get("code_challenge") ?? "",
        nonce: url.searchParams.get("nonce") ?? "",
        claims: nextClaims,
      });
      const back = new URL(url.searchParams.get("redirect_uri")!);
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      response.writeHead(302, { location: back.toString() });
      return response.end();
    }
    if (url.pathname === "/token" && request.method === "POST") {
      let raw = "";
      for await (const chunk of request) raw += chunk;
      const form = new URLSearchParams(raw);
      const pending = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      const verifierHash = createHash("sha256")
        .update(form.get("code_verifier") ?? "")
        .digest("base64url");
      if (form.get("client_secret") !== clientSecret) return json(401, { error: "invalid_client" });
      if (!pending || verifierHash !== pending.challenge) return json(400, { error: "invalid_grant" });
      const idToken = await new SignJWT({ nonce: pending.nonce, ...pending.claims })
        .setProtectedHeader({ alg: "RS256", kid: "k1" })
        .setIssuer(issuer)
        .setAudience(clientId)
        .setSubject("user-123")
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(privateKey);
      return json(200, { access_token: "at", token_type: "Bearer", expires_in: 300, id_token: idToken });
    }
    json(404, { error: "not_found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  temp = useTemporaryConsole();
  await startProvider();
  process.env.CONSOLE_OIDC_ISSUER = issuer;
  process.env.CONSOLE_OIDC_CLIENT_ID = clientId;
  process.env.CONSOLE_OIDC_CLIENT_SECRET = clientSecret;
  process.env.CONSOLE_OIDC_REDIRECT_URI = `${consoleOrigin}/api/auth/oidc/callback`;
  process.env.CONSOLE_OIDC_ROLE_CLAIM = "groups";
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await temp.restore();
});

/** Runs the browser's part: start, the provider's redirect back, the callback; returns the callback response. */
async function signIn(options: { tamperState?: boolean; next?: string } = {}): Promise<Response> {
  const next = encodeURIComponent(options.next ?? "/endpoints");
  const start = await startRoute(new Request(`${consoleOrigin}/api/auth/oidc/start?next=${next}`));
  expect(start.status).toBe(302);
  const flowCookie = start.headers.get("set-cookie")!.split(";")[0]!;
  const provider = await fetch(start.headers.get("location")!, { redirect: "manual" });
  const callback = new URL(provider.headers.get("location")!);
  if (options.tamperState) callback.searchParams.set("state", "forged");
  return callbackRoute(new Request(callback, { headers: { cookie: flowCookie } }));
}

function sessionCookie(response: Response): string {
  const cookie = response.headers
    .getSetCookie()
    .find((c) => c.startsWith("dc_session="))!
    .split(";")[0]!;
  return cookie;
}

describe("single sign-on (OIDC authorization code + PKCE)", () => {
  it("the authorization request carries PKCE S256, state and nonce", async () => {
    const start = await startRoute(new Request(`${consoleOrigin}/api/auth/oidc/start`));
    const location = new URL(start.headers.get("location")!);
    expect(location.origin).toBe(issuer);
    expect(location.searchParams.get("code_challenge_method")).toBe("S256");
    expect(location.searchParams.get("state")).toBeTruthy();
    expect(location.searchParams.get("nonce")).toBeTruthy();
    expect(start.headers.get("set-cookie")).toMatch(/^dc_oidc_flow=.*HttpOnly; SameSite=Lax/);
  });

  it("a user in the operator group signs in as an operator and returns to where they were going", async () => {
    nextClaims = { email: "olivia@example.com", email_verified: true, groups: ["operator"] };
    const response = await signIn();
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${consoleOrigin}/endpoints`);
    const principal = await principalOf(
      new Request(`${consoleOrigin}/`, { headers: { cookie: sessionCookie(response) } }),
    );
    expect(principal).toEqual({ name: "sso:olivia@example.com", role: "operator", source: "oidc" });
  });

  it.each([
    ["an email the provider did not verify", { email: "paula", email_verified: false }],
    ["an email without email_verified", { email: "paula" }],
    ["email_verified as a string", { email: "paula", email_verified: "true" }],
    ["a preferred_username", { preferred_username: "paula" }],
    ["a cognito:username", { "cognito:username": "paula" }],
  ])("a session is named by the provider's subject, not by %s (a password user's name)", async (_, claims) => {
    nextClaims = { ...claims, groups: ["operator"] };
    const principal = await principalOf(
      new Request(`${consoleOrigin}/`, { headers: { cookie: sessionCookie(await signIn()) } }),
    );
    expect(principal).toEqual({ name: "sso-subject:user-123", role: "operator", source: "oidc" });
  });

  it.each([
    "//evil.example/steal",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r/evil.example",
    "/\\evil.example",
    "/.//evil.example",
    "https://evil.example/",
  ])("a `next` of %j, which a browser would read as another site, returns to the console's home", async (next) => {
    nextClaims = { email: "olivia@example.com", groups: ["operator"] };
    const response = await signIn({ next });
    expect(response.headers.get("location")).toBe(`${consoleOrigin}/`);
  });

  it("a user in the viewer group is a viewer", async () => {
    nextClaims = { email: "vince@example.com", groups: "viewer" };
    const principal = await principalOf(
      new Request(`${consoleOrigin}/`, { headers: { cookie: sessionCookie(await signIn()) } }),
    );
    expect(principal?.role).toBe("viewer");
  });

  it("a user the role claim grants nothing is refused with a 403 that says why", async () => {
    nextClaims = { email: "nobody@example.com", groups: ["finance"] };
    const response = await signIn();
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
      "the groups claim grants no console role",
    );
  });

  it("a callback whose state was changed is refused", async () => {
    nextClaims = { email: "olivia@example.com", groups: ["operator"] };
    const response = await signIn({ tamperState: true });
    expect(response.status).toBe(401);
  });

  it("a callback without the flow cookie (another browser) is refused", async () => {
    const response = await callbackRoute(new Request(`${consoleOrigin}/api/auth/oidc/callback?code=x&state=y`));
    expect(response.status).toBe(400);
  });
});

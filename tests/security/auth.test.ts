import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as auditRoute } from "@/app/api/audit/route.ts";
import { POST as loginRoute } from "@/app/api/auth/login/route.ts";
import { POST as logoutRoute } from "@/app/api/auth/logout/route.ts";
import { GET as meRoute } from "@/app/api/auth/me/route.ts";
import { proxy } from "@/proxy.ts";
import { listAudit, recordAudit } from "@/server/audit/record.ts";
import { assertSafeBind, isLoopbackHost } from "@/server/auth/bind.ts";
import { gate } from "@/server/auth/gate.ts";
import { hashPassword, verifyCredentials } from "@/server/auth/passwords.ts";
import { principalOf, requireRole } from "@/server/auth/principal.ts";
import { createRateLimiter } from "@/server/auth/rate-limit.ts";
import { crossOriginReason } from "@/server/auth/same-origin.ts";
import { sessionCookie, sessionKey, signSession, verifySession } from "@/server/auth/session.ts";
import { envUsers, usersConfigured } from "@/server/auth/users.ts";
import { consoleConfig } from "@/server/config.ts";
import { AppError } from "@/server/http/app-error.ts";
import { PEER_ADDRESS_HEADER } from "@/server/http/forwarded.ts";
import { consoleStore } from "@/server/store/console-database.ts";
import { addUser, consoleOrigin, useTemporaryConsole } from "./support.ts";

let temp: ReturnType<typeof useTemporaryConsole>;
beforeAll(() => {
  temp = useTemporaryConsole();
});
afterAll(() => temp.restore());

function jsonRequest(path: string, body: unknown, headers: Record<string, string> = {}): Request {
  const text = JSON.stringify(body);
  return new Request(new URL(path, consoleOrigin), {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "content-length": String(text.length),
      host: "127.0.0.1:3000",
      ...headers,
    },
    body: text,
  });
}

function cookieFrom(response: Response): string {
  return response.headers.get("set-cookie")!.split(";")[0]!;
}

describe("local mode (no users configured)", () => {
  it("everyone reaching the console through a loopback name is the local operator", async () => {
    const request = new Request(`${consoleOrigin}/api/endpoints`, { headers: { host: "localhost:3000" } });
    expect(await principalOf(request)).toEqual({ name: "local", role: "operator", source: "local" });
  });

  it("a page on another site that rebinds its DNS name to 127.0.0.1 is not the local operator", async () => {
    const request = new NextRequest(`${consoleOrigin}/api/endpoints`, { headers: { host: "attacker.example:3000" } });
    expect(await principalOf(request)).toBeNull();
    expect((await proxy(request)).status).toBe(401);
  });

  it("a page on another site posting to the loopback console is refused, though the caller would be the local operator", async () => {
    const request = new NextRequest(`${consoleOrigin}/api/endpoints`, {
      method: "POST",
      headers: { host: "127.0.0.1:3000", origin: "https://attacker.example", "content-type": "text/plain" },
      body: "{}",
    });
    const response = await proxy(request);
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /^Cross-site request refused/,
    );
  });

  it("sign-in says that no users exist rather than failing as a wrong password", async () => {
    const response = await loginRoute(jsonRequest("/api/auth/login", { name: "a", password: "b" }));
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain("local operator");
  });

  it("/api/auth/me reports local mode", async () => {
    const response = await meRoute(
      new Request(`${consoleOrigin}/api/auth/me`, { headers: { host: "127.0.0.1:3000" } }),
    );
    expect(await response.json()).toMatchObject({ mode: "local", user: { name: "local", role: "operator" } });
  });
});

describe("the decision gateway's paths", () => {
  const decisionCall = (path: string) =>
    new NextRequest(`${consoleOrigin}${path}`, {
      method: "POST",
      headers: { host: "app.example:3000", origin: "https://app.example", authorization: "Bearer dcg_x" },
    });
  /** The gate's answer while the console's settings cannot be read: a gate that looks them up throws. */
  async function gateWithoutSettings(request: Request): Promise<Response | null> {
    const saved = process.env.CONSOLE_PUBLIC_ORIGIN;
    process.env.CONSOLE_PUBLIC_ORIGIN = "not an origin";
    try {
      expect(() => consoleConfig()).toThrow(/CONSOLE_PUBLIC_ORIGIN/);
      return await gate(request);
    } finally {
      if (saved === undefined) delete process.env.CONSOLE_PUBLIC_ORIGIN;
      else process.env.CONSOLE_PUBLIC_ORIGIN = saved;
    }
  }

  it("pass on to their handlers (which check the key) without the session, the store or the settings", async () => {
    for (const path of ["/v1/systemone", "/v1/decisions", "/v1/models"]) {
      expect(await gateWithoutSettings(decisionCall(path))).toBeNull();
    }
  });

  it("a path beside them is a console page, refused to a caller that is not signed in", async () => {
    expect((await proxy(decisionCall("/v1/other"))).status).toBe(403);
    const page = new NextRequest(`${consoleOrigin}/v1/other`, { headers: { host: "app.example:3000" } });
    expect((await proxy(page)).status).toBe(307);
  });

  it("a path that is not valid percent-encoding is refused before any handler", async () => {
    expect((await gateWithoutSettings(decisionCall("/v1/%zz")))?.status).toBe(400);
  });
});

describe("binding beyond loopback", () => {
  it("recognises loopback names and addresses", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]", "app.localhost"]) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of ["0.0.0.0", "::", "10.0.0.5", "console.example.com", "128.0.0.1"]) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });

  it("loopback is always allowed", () => {
    expect(() => assertSafeBind("127.0.0.1", false, {})).not.toThrow();
  });

  it("without users, any other address is refused with the reason and the fix", () => {
    expect(() => assertSafeBind("0.0.0.0", false, {})).toThrow(
      /Refusing to listen on 0\.0\.0\.0: no console users are configured.*npm run users -- add/,
    );
  });

  it("with users but no session secret, any other address is refused", () => {
    expect(() => assertSafeBind("0.0.0.0", true, {})).toThrow(/CONSOLE_SESSION_SECRET is not set/);
    expect(() => assertSafeBind("0.0.0.0", true, { CONSOLE_SESSION_SECRET: "short" })).toThrow(/shorter than 32/);
    expect(() => assertSafeBind("0.0.0.0", true, { CONSOLE_SESSION_SECRET: "x".repeat(40) })).not.toThrow();
  });
});

describe("passwords and users", () => {
  it("passwords are stored as argon2id hashes, never as given", async () => {
    const hash = await hashPassword("correct horse battery");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$/);
    expect(hash).not.toContain("correct horse");
  });

  it("a short password is refused", async () => {
    expect(() => hashPassword("short")).toThrow(/at least 12 characters/);
  });

  it("credentials match only the right password of an existing user", async () => {
    await addUser("paula", "viewer", "paula-password-long");
    const store = consoleStore();
    expect(await verifyCredentials(store, "paula", "paula-password-long", consoleConfig())).toEqual({
      name: "paula",
      role: "viewer",
    });
    expect(await verifyCredentials(store, "paula", "wrong-password-long", consoleConfig())).toBeNull();
    expect(await verifyCredentials(store, "nobody", "paula-password-long", consoleConfig())).toBeNull();
    expect(await usersConfigured(store, consoleConfig())).toBe(true);
  });

  it("users from CONSOLE_USERS (hash or, for tests, a plain password) sign in too", async () => {
    const env = {
      CONSOLE_USERS: JSON.stringify([
        { name: "hashed", role: "operator", passwordHash: await hashPassword("hashed-password-1") },
        { name: "plain", role: "viewer", password: "plain-password-1" },
      ]),
    };
    const store = consoleStore();
    expect(await verifyCredentials(store, "hashed", "hashed-password-1", env)).toEqual({
      name: "hashed",
      role: "operator",
    });
    expect(await verifyCredentials(store, "plain", "plain-password-1", env)).toEqual({ name: "plain", role: "viewer" });
    expect(await verifyCredentials(store, "plain", "plain-password-2", env)).toBeNull();
  });

  it("a malformed CONSOLE_USERS is a start-up error that names the field", () => {
    expect(() => envUsers({ CONSOLE_USERS: "[{" })).toThrow(/CONSOLE_USERS is not valid JSON/);
    expect(() => envUsers({ CONSOLE_USERS: '[{"name":"x","role":"admin","password":"p"}]' })).toThrow(
      /CONSOLE_USERS is invalid at 0\.role/,
    );
  });
});

describe("sessions", () => {
  it("a signed session round-trips; another key or a changed byte does not verify", async () => {
    const key = sessionKey(consoleConfig());
    const token = await signSession({ name: "paula", role: "viewer", source: "password" }, key);
    expect(await verifySession(token, key)).toEqual({ name: "paula", role: "viewer", source: "password" });
    expect(await verifySession(token, new TextEncoder().encode("y".repeat(40)))).toBeNull();
    const [header, payload, signature] = token.split(".");
    const promoted = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, "base64url").toString()), role: "operator" }),
    ).toString("base64url");
    expect(await verifySession(`${header}.${promoted}.${signature}`, key)).toBeNull();
  });

  it("an expired session does not verify", async () => {
    const token = await signSession(
      { name: "paula", role: "viewer", source: "password" },
      sessionKey(consoleConfig()),
      0,
    );
    expect(await verifySession(token, sessionKey(consoleConfig()))).toBeNull();
  });

  it("the cookie is HttpOnly and SameSite=Lax, and Secure only over TLS", () => {
    const plain = sessionCookie(new Request("http://127.0.0.1:3000/"), "t", consoleConfig());
    expect(plain).toMatch(/HttpOnly/);
    expect(plain).toMatch(/SameSite=Lax/);
    expect(plain).not.toMatch(/Secure/);
    expect(sessionCookie(new Request("https://console.example.com/"), "t", consoleConfig())).toMatch(/; Secure/);
    const behindProxy = new Request("http://10.0.0.1/", {
      headers: { "x-forwarded-proto": "https", [PEER_ADDRESS_HEADER]: "10.0.0.5" },
    });
    expect(sessionCookie(behindProxy, "t", consoleConfig())).not.toMatch(/Secure/);
    process.env.CONSOLE_TRUSTED_PROXIES = "10.0.0.5";
    try {
      expect(sessionCookie(behindProxy, "t", consoleConfig())).toMatch(/; Secure/);
    } finally {
      delete process.env.CONSOLE_TRUSTED_PROXIES;
    }
  });
});

describe("sign-in, sign-out and the audit trail", () => {
  let operatorCookie: string;

  it("a wrong password is a 401 with a clear message, and is audited as denied", async () => {
    await addUser("olga", "operator", "olga-password-long");
    const response = await loginRoute(jsonRequest("/api/auth/login", { name: "olga", password: "nope-nope-nope" }));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: { code: "unauthenticated", message: "That user name and password do not match." },
    });
    expect((await listAudit({ limit: 1 }))[0]).toMatchObject({ actor: "olga", action: "auth.login", result: "denied" });
  });

  it("the right password sets a session cookie that the proxy accepts", async () => {
    const response = await loginRoute(jsonRequest("/api/auth/login", { name: "olga", password: "olga-password-long" }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ user: { name: "olga", role: "operator" } });
    operatorCookie = cookieFrom(response);
    const through = await proxy(new NextRequest(`${consoleOrigin}/api/audit`, { headers: { cookie: operatorCookie } }));
    expect(through.headers.get("x-middleware-next")).toBe("1");
  });

  it("a body that is not the expected shape is a 400 that names the field", async () => {
    const response = await loginRoute(jsonRequest("/api/auth/login", { name: "olga" }));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/^password:/);
  });

  it("/api/auth/me names the signed-in user", async () => {
    const response = await meRoute(
      new Request(`${consoleOrigin}/api/auth/me`, { headers: { cookie: operatorCookie } }),
    );
    expect(await response.json()).toEqual({
      user: { name: "olga", role: "operator", source: "password" },
      mode: "users",
      singleSignOn: false,
    });
  });

  it("operators read the audit log newest first, a page at a time", async () => {
    recordAudit({
      actor: "olga",
      action: "endpoint.delete",
      target: "demo",
      awsRequestId: "req-1",
      result: "ok",
      detail: { force: false },
    });
    const response = await auditRoute(
      new Request(`${consoleOrigin}/api/audit?limit=1`, { headers: { cookie: operatorCookie } }),
    );
    const page = (await response.json()) as {
      records: { action: string; awsRequestId: string; detail: unknown }[];
      nextBefore: number;
    };
    expect(page.records).toEqual([
      expect.objectContaining({ action: "endpoint.delete", awsRequestId: "req-1", detail: { force: false } }),
    ]);
    const older = await auditRoute(
      new Request(`${consoleOrigin}/api/audit?limit=5&before=${page.nextBefore}`, {
        headers: { cookie: operatorCookie },
      }),
    );
    const rest = (await older.json()) as { records: { action: string }[] };
    expect(rest.records.map((r) => r.action)).toContain("auth.login");
    expect(rest.records.map((r) => r.action)).not.toContain("endpoint.delete");
  });

  it("a viewer asking the audit route directly gets a 403 (the handler checks too, not only the proxy)", async () => {
    await addUser("vic", "viewer", "vic-password-long");
    const login = await loginRoute(jsonRequest("/api/auth/login", { name: "vic", password: "vic-password-long" }));
    const response = await auditRoute(
      new Request(`${consoleOrigin}/api/audit`, { headers: { cookie: cookieFrom(login) } }),
    );
    expect(response.status).toBe(403);
  });

  it("an invalid audit query is a 400", async () => {
    const response = await auditRoute(
      new Request(`${consoleOrigin}/api/audit?limit=0`, { headers: { cookie: operatorCookie } }),
    );
    expect(response.status).toBe(400);
  });

  it("sign-out clears the cookie and revokes the session, so a copy of the cookie stops working too", async () => {
    const response = await logoutRoute(jsonRequest("/api/auth/logout", {}, { cookie: operatorCookie }));
    expect(response.headers.get("set-cookie")).toMatch(/^dc_session=; .*Max-Age=0/);
    const replayed = await proxy(
      new NextRequest(`${consoleOrigin}/api/audit`, { headers: { cookie: operatorCookie } }),
    );
    expect(replayed.status).toBe(401);
    expect((await listAudit({ limit: 1 }))[0]).toMatchObject({ actor: "olga", action: "auth.logout", result: "ok" });
  });

  it("repeated wrong passwords for one name are slowed down with 429", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      statuses.push(
        (await loginRoute(jsonRequest("/api/auth/login", { name: "vic", password: `guess-${i}-guess-${i}` }))).status,
      );
    }
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.at(-1)).toBe(429);
  });

  it("requireRole gives 401 without a session and 403 for too small a role", async () => {
    await expect(requireRole(new Request(`${consoleOrigin}/x`), "viewer")).rejects.toMatchObject({ status: 401 });
    const viewerToken = await signSession(
      { name: "vic", role: "viewer", source: "password" },
      sessionKey(consoleConfig()),
    );
    const viewer = new Request(`${consoleOrigin}/x`, { headers: { cookie: `dc_session=${viewerToken}` } });
    await expect(requireRole(viewer, "operator")).rejects.toBeInstanceOf(AppError);
    await expect(requireRole(viewer, "viewer")).resolves.toMatchObject({ name: "vic" });
  });
});

describe("same-origin", () => {
  it("a request without Origin or Sec-Fetch-Site is a non-browser client and is allowed", () => {
    expect(
      crossOriginReason(
        new Request(`${consoleOrigin}/api/x`, { method: "POST", headers: { host: "127.0.0.1:3000" } }),
        consoleConfig(),
      ),
    ).toBeNull();
  });

  it("CONSOLE_PUBLIC_ORIGIN names the origin behind a proxy that rewrites the host", () => {
    const request = new Request("http://internal:3000/api/x", {
      method: "POST",
      headers: { host: "internal:3000", origin: "https://console.example.com" },
    });
    expect(crossOriginReason(request, {})).toMatch(/not this console's/);
    expect(crossOriginReason(request, { CONSOLE_PUBLIC_ORIGIN: "https://console.example.com" })).toBeNull();
  });
});

describe("playground limits", () => {
  it("a token bucket allows the burst, then refuses with the wait until the next token", () => {
    let now = 0;
    const limiter = createRateLimiter({ burst: 3, perMinute: 60, now: () => now });
    expect([1, 2, 3].map(() => limiter.take("u").allowed)).toEqual([true, true, true]);
    expect(limiter.take("u")).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(limiter.take("someone-else").allowed).toBe(true);
    now += 1000;
    expect(limiter.take("u").allowed).toBe(true);
  });

  it("through the proxy: a body over 262144 bytes is a 413 and a flood from one user gets 429 with Retry-After", async () => {
    const token = await signSession({ name: "vic", role: "viewer", source: "password" }, sessionKey(consoleConfig()));
    const invoke = (length: number) =>
      proxy(
        new NextRequest(`${consoleOrigin}/api/endpoints/demo/invoke`, {
          method: "POST",
          headers: {
            cookie: `dc_session=${token}`,
            "content-type": "application/json",
            "content-length": String(length),
          },
          body: "x".repeat(length),
        }),
      );
    expect((await invoke(262_145)).status).toBe(413);
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await invoke(2)).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    const limited = await invoke(2);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
  });
});

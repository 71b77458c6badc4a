import fs from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proxy } from "@/proxy.ts";
import { apiPolicy, findApiRule } from "@/server/auth/policy.ts";
import type { Access } from "@/server/auth/roles.ts";
import { PEER_ADDRESS_HEADER } from "@/server/http/forwarded.ts";
import { addUser, consoleOrigin, sessionCookieFor, useTemporaryConsole } from "./support.ts";

const appDir = path.resolve(import.meta.dirname, "../../app");
const handlerMethods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
type HandlerMethod = (typeof handlerMethods)[number];

interface RouteHandler {
  file: string;
  pattern: string;
  methods: HandlerMethod[];
}

/** Every `route.ts` under app/api, with the HTTP methods it exports, found from the file system. */
function discoverRouteHandlers(): RouteHandler[] {
  const found: RouteHandler[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/^route\.(ts|tsx|js)$/.test(entry.name)) {
        const source = fs.readFileSync(full, "utf8");
        const methods = handlerMethods.filter((method) =>
          new RegExp(
            `export\\s+(const|let|async\\s+function|function)\\s+${method}\\b|export\\s*\\{[^}]*\\b${method}\\b[^}]*\\}`,
          ).test(source),
        );
        const segments = path.relative(appDir, path.dirname(full)).split(path.sep);
        // Route groups `(name)` do not appear in the URL.
        const pattern = `/${segments.filter((s) => !/^\(.*\)$/.test(s)).join("/")}`;
        found.push({ file: path.relative(appDir, full), pattern, methods });
      }
    }
  };
  walk(path.join(appDir, "api"));
  return found.sort((a, b) => a.pattern.localeCompare(b.pattern));
}

function samplePath(pattern: string): string {
  return pattern.replace(/\[\[?\.\.\.[^\]]+\]\]?/g, "sample/deeper").replace(/\[[^\]]+\]/g, "sample-1");
}

async function callProxy(method: string, pathname: string, headers: Record<string, string> = {}): Promise<Response> {
  const hasBody = !["GET", "HEAD", "OPTIONS"].includes(method);
  const request = new NextRequest(new URL(pathname, consoleOrigin), {
    method,
    headers: {
      host: "127.0.0.1:3000",
      ...(hasBody ? { "content-type": "application/json", "content-length": "2" } : {}),
      ...headers,
    },
    body: hasBody ? "{}" : undefined,
  });
  return proxy(request);
}

function allowed(response: Response): boolean {
  return response.headers.get("x-middleware-next") === "1";
}

const handlers = discoverRouteHandlers();
const callers = ["anonymous", "viewer", "operator"] as const;

/**
 * The access each route handler must demand, written out here rather than read from server/auth/policy.ts, so a
 * change to the policy table fails until this matrix is changed with it.
 */
const expectedAccess: Record<string, Access> = {
  "GET /api/health": "anonymous",
  "GET /api/settings": "viewer",
  "GET /api/openapi.json": "anonymous",
  "POST /api/auth/login": "anonymous",
  "POST /api/auth/logout": "anonymous",
  "GET /api/auth/me": "anonymous",
  "GET /api/auth/oidc/start": "anonymous",
  "GET /api/auth/oidc/callback": "anonymous",
  "GET /api/audit": "operator",
  "GET /api/endpoints": "viewer",
  "POST /api/endpoints": "operator",
  "GET /api/endpoints/[name]": "viewer",
  "PATCH /api/endpoints/[name]": "operator",
  "DELETE /api/endpoints/[name]": "operator",
  "GET /api/endpoints/[name]/metrics": "viewer",
  "GET /api/endpoints/[name]/monitoring": "viewer",
  "GET /api/endpoints/[name]/shadow": "viewer",
  "POST /api/endpoints/[name]/shadow": "operator",
  "DELETE /api/endpoints/[name]/shadow": "operator",
  "POST /api/endpoints/[name]/shadow/promote": "operator",
  "GET /api/endpoints/[name]/drift": "viewer",
  "PUT /api/endpoints/[name]/drift": "operator",
  "GET /api/endpoints/[name]/threshold": "viewer",
  "PUT /api/endpoints/[name]/threshold": "operator",
  "POST /api/endpoints/[name]/ground-truth": "viewer",
  "POST /api/endpoints/[name]/ground-truth/import": "viewer",
  "GET /api/endpoints/[name]/realised": "viewer",
  "POST /api/endpoints/[name]/evaluation": "operator",
  "GET /api/endpoints/[name]/review": "viewer",
  "POST /api/endpoints/[name]/review/labels": "viewer",
  "POST /api/endpoints/[name]/review/export": "viewer",
  "GET /api/endpoints/[name]/logs": "viewer",
  "GET /api/endpoints/[name]/alarms": "viewer",
  "POST /api/endpoints/[name]/update": "operator",
  "POST /api/endpoints/[name]/update/abort": "operator",
  "GET /api/endpoints/[name]/autoscaling": "viewer",
  "PUT /api/endpoints/[name]/autoscaling": "operator",
  "DELETE /api/endpoints/[name]/autoscaling": "operator",
  "POST /api/endpoints/[name]/invoke": "viewer",
  "POST /api/endpoints/[name]/invoke-async": "viewer",
  "GET /api/endpoints/[name]/invoke-async/[inferenceId]": "viewer",
  "GET /api/endpoints/[name]/invocations": "viewer",
  "GET /api/endpoints/[name]/async-requests": "viewer",
  "GET /api/images": "viewer",
  "GET /api/model-presets": "viewer",
  "GET /api/builds": "viewer",
  "POST /api/builds": "operator",
  "GET /api/builds/[id]": "viewer",
  "GET /api/builds/[id]/logs": "viewer",
  "POST /api/builds/[id]/stop": "operator",
  "POST /api/builds/[id]/retry": "operator",
  "GET /api/batch": "viewer",
  "POST /api/batch": "operator",
  "GET /api/batch/[name]": "viewer",
  "POST /api/batch/[name]/stop": "operator",
  "POST /api/datasets/[id]/export": "operator",
  "GET /api/datasets": "viewer",
  "POST /api/datasets": "viewer",
  "GET /api/datasets/[id]": "viewer",
  "DELETE /api/datasets/[id]": "operator",
  "GET /api/evaluations": "viewer",
  "POST /api/evaluations": "viewer",
  "GET /api/evaluations/[id]": "viewer",
  "DELETE /api/evaluations/[id]": "operator",
  "POST /api/evaluations/[id]/cancel": "viewer",
  "POST /api/evaluations/[id]/retry-failed": "viewer",
  "GET /api/evaluations/[id]/export": "viewer",
  "GET /api/models": "viewer",
  "POST /api/models": "operator",
  "GET /api/models/[group]": "viewer",
  "GET /api/models/[group]/[version]": "viewer",
  "POST /api/models/[group]/[version]/evaluation": "operator",
  "POST /api/models/[group]/[version]/approval": "operator",
  "GET /api/gateway/keys": "viewer",
  "POST /api/gateway/keys": "operator",
  "PATCH /api/gateway/keys/[id]": "operator",
  "POST /api/gateway/keys/[id]/revoke": "operator",
};

/** HEAD and OPTIONS are answered as GET. */
const verbOf = (method: string) => (method === "HEAD" || method === "OPTIONS" ? "GET" : method);
const expected: Record<Access, Record<(typeof callers)[number], 401 | 403 | "allowed">> = {
  anonymous: { anonymous: "allowed", viewer: "allowed", operator: "allowed" },
  viewer: { anonymous: 401, viewer: "allowed", operator: "allowed" },
  operator: { anonymous: 401, viewer: 403, operator: "allowed" },
};

let cookies: Record<(typeof callers)[number], Record<string, string>>;
let console_: ReturnType<typeof useTemporaryConsole>;

beforeAll(async () => {
  console_ = useTemporaryConsole();
  await addUser("vera", "viewer");
  await addUser("otto", "operator");
  cookies = {
    anonymous: {},
    viewer: { cookie: await sessionCookieFor("vera", "viewer") },
    operator: { cookie: await sessionCookieFor("otto", "operator") },
  };
});
afterAll(() => console_.restore());

describe("the route policy covers every route handler", () => {
  it("finds the route handlers on disk (the walk itself works)", () => {
    expect(handlers.map((h) => h.pattern)).toEqual(expect.arrayContaining(["/api/auth/login", "/api/audit"]));
    expect(handlers.every((h) => h.methods.length > 0)).toBe(true);
  });

  it.each(handlers.map((h) => [h.pattern, h] as const))(
    "%s and each method it exports are in the policy table",
    (_, handler) => {
      const rule = findApiRule(samplePath(handler.pattern));
      expect(rule?.pattern, `${handler.file} has no entry in server/auth/policy.ts`).toBe(handler.pattern);
      for (const method of handler.methods.filter((m) => m !== "HEAD" && m !== "OPTIONS")) {
        expect(rule?.methods[method], `${method} ${handler.pattern} has no access rule`).toBeDefined();
      }
    },
  );

  it("the expected matrix names exactly the route handlers and methods on disk", () => {
    const onDisk = handlers.flatMap((h) => [...new Set(h.methods.map(verbOf))].map((m) => `${m} ${h.pattern}`));
    expect(onDisk.sort()).toEqual(Object.keys(expectedAccess).sort());
  });

  it("the table names no route that does not exist", () => {
    const onDisk = new Set(handlers.map((h) => h.pattern));
    const stale = apiPolicy.map((rule) => rule.pattern).filter((pattern) => !onDisk.has(pattern));
    // Routes still being built by others are listed ahead of their handlers; report, but only fail on typos.
    for (const pattern of stale) expect(pattern).toMatch(/^\/api\/[a-z-]+(\/(\[[a-z]+\]|[a-z-]+))*$/);
  });
});

describe("every route handler as anonymous, viewer and operator", () => {
  const cases = handlers.flatMap((handler) =>
    handler.methods.flatMap((method) => callers.map((caller) => [method, handler.pattern, caller] as const)),
  );

  it.each(cases)("%s %s as %s gets the status its role allows", async (method, pattern, caller) => {
    const pathname = samplePath(pattern);
    const access = expectedAccess[`${verbOf(method)} ${pattern}`];
    if (!access) throw new Error(`${method} ${pattern} is missing from the expected matrix`);
    const sameOrigin: Record<string, string> =
      method === "GET" || method === "HEAD" ? {} : { origin: consoleOrigin, "sec-fetch-site": "same-origin" };
    const response = await callProxy(method, pathname, { ...cookies[caller], ...sameOrigin });
    const want = expected[access][caller];
    if (want === "allowed") {
      expect(allowed(response), `status ${response.status}`).toBe(true);
    } else {
      expect(response.status).toBe(want);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe(want === 401 ? "unauthenticated" : "forbidden");
      expect(body.error.message).toContain(`${access} role`);
    }
  });
});

describe("same-origin checks on every mutating route", () => {
  const mutations = handlers.flatMap((handler) =>
    handler.methods
      .filter((m) => !["GET", "HEAD", "OPTIONS"].includes(m))
      .map((method) => [method, handler.pattern] as const),
  );

  it.each(mutations)("%s %s from another site is refused even for an operator", async (method, pattern) => {
    const response = await callProxy(method, samplePath(pattern), {
      ...cookies.operator,
      origin: "https://evil.example",
    });
    expect(response.status).toBe(403);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.message).toMatch(/Cross-site request refused: its Origin https:\/\/evil\.example/);
  });

  it.each(mutations)("%s %s marked cross-site by the browser is refused", async (method, pattern) => {
    const response = await callProxy(method, samplePath(pattern), {
      ...cookies.operator,
      "sec-fetch-site": "cross-site",
    });
    expect(response.status).toBe(403);
  });
});

describe("the audit log", () => {
  // Playground calls are recorded in the endpoint's invocation log, not the audit log of changes.
  const notChanges = new Set(["POST /api/endpoints/[name]/invoke", "POST /api/endpoints/[name]/invoke-async"]);
  const mutations = handlers.flatMap((handler) =>
    handler.methods
      .filter((m) => !["GET", "HEAD", "OPTIONS"].includes(m))
      .map((method) => [`${method} ${handler.pattern}`, handler] as const)
      .filter(([name]) => !notChanges.has(name)),
  );

  it.each(mutations)("%s: its route file writes the audit log (audited() or recordAudit())", (_, handler) => {
    const source = fs.readFileSync(path.join(appDir, handler.file), "utf8");
    expect(source).toMatch(/\baudited\(|\brecordAudit\(/);
  });
});

/** Every `page.tsx` under app/, as the URL path it serves. */
function discoverPages(): string[] {
  return fs
    .readdirSync(appDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /^page\.(tsx|ts|jsx|js)$/.test(entry.name))
    .map((entry) => {
      const segments = path.relative(appDir, entry.parentPath).split(path.sep).filter(Boolean);
      return `/${segments.filter((s) => !/^\(.*\)$/.test(s)).join("/")}`;
    })
    .sort();
}

describe("every page as anonymous, viewer and operator", () => {
  const pages = discoverPages();
  const cases = pages.flatMap((page) => callers.map((caller) => [page, caller] as const));

  it("finds the pages on disk", () => {
    expect(pages).toEqual(expect.arrayContaining(["/", "/login", "/audit"]));
  });

  it.each(cases)("%s as %s", async (page, caller) => {
    const response = await callProxy("GET", samplePath(page), cookies[caller]);
    const open = page === "/login";
    if (open || caller === "operator" || (caller === "viewer" && page !== "/audit")) {
      expect(allowed(response), `status ${response.status}`).toBe(true);
    } else if (caller === "anonymous") {
      expect(response.status).toBe(307);
      expect(response.headers.get("location")).toMatch(/\/login\?next=/);
    } else {
      expect(response.status).toBe(403);
    }
  });
});

describe("pages", () => {
  it("an anonymous visitor is sent to the login page, which remembers where they were going", async () => {
    const response = await callProxy("GET", "/endpoints/demo?tab=metrics");
    expect(response.status).toBe(307);
    expect(response.headers.get("location")).toBe(`${consoleOrigin}/login?next=%2Fendpoints%2Fdemo%3Ftab%3Dmetrics`);
  });

  it("the login page is open to everyone", async () => {
    expect(allowed(await callProxy("GET", "/login"))).toBe(true);
  });

  it("the audit page is for operators: a viewer gets a 403 page that says why", async () => {
    const response = await callProxy("GET", "/audit", cookies.viewer);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("needs the operator role; you are signed in as vera (viewer)");
    expect(allowed(await callProxy("GET", "/audit", cookies.operator))).toBe(true);
  });

  it("a forged or expired cookie counts as no session", async () => {
    const forged = `${cookies.operator.cookie!.slice(0, -4)}AAAA`;
    expect((await callProxy("GET", "/api/audit", { cookie: forged })).status).toBe(401);
  });

  it("a removed user's still-valid cookie stops working at once", async () => {
    const cookie = await sessionCookieFor("ghost", "operator");
    expect((await callProxy("GET", "/api/audit", { cookie })).status).toBe(401);
  });

  it("HSTS is sent only to browsers that came over TLS (a trusted proxy's X-Forwarded-Proto: https)", async () => {
    expect((await callProxy("GET", "/login")).headers.get("strict-transport-security")).toBeNull();
    const claimed = await callProxy("GET", "/login", { "x-forwarded-proto": "https" });
    expect(claimed.headers.get("strict-transport-security")).toBeNull();
    process.env.CONSOLE_TRUSTED_PROXIES = "10.0.0.5";
    try {
      const tls = await callProxy("GET", "/login", { "x-forwarded-proto": "https", [PEER_ADDRESS_HEADER]: "10.0.0.5" });
      expect(tls.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
    } finally {
      delete process.env.CONSOLE_TRUSTED_PROXIES;
    }
  });
});

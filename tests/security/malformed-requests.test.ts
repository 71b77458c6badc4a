import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as meRoute } from "@/app/api/auth/me/route.ts";
import { GET as buildRoute } from "@/app/api/builds/[id]/route.ts";
import { proxy } from "@/proxy.ts";
import { apiPolicy } from "@/server/auth/policy.ts";
import { principalOf } from "@/server/auth/principal.ts";
import { addUser, consoleOrigin, sessionCookieFor, useTemporaryConsole } from "./support.ts";

/**
 * Issue 12, Low 10: `%ZZ` in a path and a malformed `dc_session` cookie gave 500 with a URIError stack. Every
 * dynamic route parameter is tried through the proxy, which answers before Next.js decodes the parameter.
 */

let temp: ReturnType<typeof useTemporaryConsole>;
let operator: string;
beforeAll(async () => {
  temp = useTemporaryConsole();
  await addUser("olga", "operator");
  operator = await sessionCookieFor("olga", "operator");
});
afterAll(() => temp.restore());

const dynamicRoutes = apiPolicy
  .filter((rule) => rule.pattern.includes("["))
  .flatMap((rule) => Object.keys(rule.methods).map((method) => [method, rule.pattern.replace(/\[[^\]]+\]/g, "%ZZ")]));

describe("a path that is not valid percent-encoding", () => {
  it("covers every dynamic API route", () => {
    expect(dynamicRoutes.length).toBeGreaterThanOrEqual(10);
  });

  it.each(dynamicRoutes)("%s %s is a 400 that says why, before any handler runs", async (method, path) => {
    const hasBody = !["GET", "HEAD"].includes(method);
    const response = await proxy(
      new NextRequest(`${consoleOrigin}${path}`, {
        method,
        headers: {
          host: "127.0.0.1:3000",
          cookie: operator,
          ...(hasBody ? { "content-type": "application/json" } : {}),
        },
        body: hasBody ? "{}" : undefined,
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        code: "bad_request",
        message: `The path ${path} is not valid percent-encoding (a % must start a %XX byte of UTF-8).`,
      },
    });
  });

  it("is a 400 page for a page path, and a truncated %E2%82 (half a UTF-8 character) is refused too", async () => {
    const page = await proxy(new NextRequest(`${consoleOrigin}/endpoints/%ZZ`, { headers: { cookie: operator } }));
    expect(page.status).toBe(400);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const truncated = await proxy(
      new NextRequest(`${consoleOrigin}/api/datasets/%E2%82`, { headers: { cookie: operator } }),
    );
    expect(truncated.status).toBe(400);
  });

  it("a build id that decodes to %ZZ is a 400 from the handler, not a second decode's URIError", async () => {
    const response = await buildRoute(
      new Request(`${consoleOrigin}/api/builds/%25ZZ`, { headers: { cookie: operator } }),
      {
        params: Promise.resolve({ id: "%ZZ" }),
      },
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      '"%ZZ" is not a build id (expected <project>:<id>).',
    );
  });
});

describe("a malformed session cookie", () => {
  const mangled = { cookie: "dc_session=%%%zz" };

  it("is no cookie: nobody is signed in, and the API answers 401", async () => {
    expect(await principalOf(new Request(`${consoleOrigin}/`, { headers: mangled }))).toBeNull();
    const me = await meRoute(new Request(`${consoleOrigin}/api/auth/me`, { headers: mangled }));
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ user: null, mode: "users" });
    const api = await proxy(new NextRequest(`${consoleOrigin}/api/endpoints`, { headers: mangled }));
    expect(api.status).toBe(401);
  });
});

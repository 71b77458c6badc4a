import { expect, request, test } from "@playwright/test";
import { e2eSettings } from "./support/e2e-settings.ts";

/**
 * Issue 12, Low 10 and Low 13, against the real `next start` server (a unit test of the gate cannot show what
 * Next.js itself does with a path it cannot decode): 400s instead of 500s, and forwarded headers a client made up
 * are not believed.
 */
const { baseURL } = e2eSettings();

test("a path that is not valid percent-encoding is a 400, for API routes and pages", async ({ request: api }) => {
  for (const path of [
    "/api/endpoints/%ZZ",
    "/api/builds/%ZZ/logs",
    "/api/evaluations/%ZZ/export",
    "/api/datasets/%ZZ",
  ]) {
    const response = await api.get(path);
    expect(response.status(), path).toBe(400);
    expect((await response.json()).error.message).toBe(
      `The path ${path} is not valid percent-encoding (a % must start a %XX byte of UTF-8).`,
    );
  }
  expect((await api.get("/endpoints/%ZZ")).status()).toBe(400);
});

test("a TRACE, which Next.js cannot turn into a fetch Request, is a 405 with the error body, not a 500", async ({
  request: api,
}) => {
  for (const path of ["/api/health", "/api/endpoints", "/endpoints"]) {
    const response = await api.fetch(path, { method: "TRACE" });
    expect(response.status(), path).toBe(405);
    expect(response.headers().allow).toBe("GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE");
    expect((await response.json()).error.code).toBe("method_not_allowed");
  }
});

test("a mangled session cookie is no session: 401, not a 500", async () => {
  const mangled = await request.newContext({
    baseURL,
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { cookie: "dc_session=%%%zz" },
  });
  try {
    expect((await mangled.get("/api/endpoints")).status()).toBe(401);
    expect(await (await mangled.get("/api/auth/me")).json()).toMatchObject({ user: null, mode: "users" });
  } finally {
    await mangled.dispose();
  }
});

test("a made-up X-Forwarded-Host or -Proto does not steer the sign-in redirect", async () => {
  const forged = await request.newContext({
    baseURL,
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
  });
  try {
    const response = await forged.get("/endpoints", { maxRedirects: 0 });
    expect(response.status()).toBe(307);
    // Next.js may shorten a same-origin Location to a path; either way it must lead to this console.
    expect(new URL(response.headers().location ?? "", baseURL).toString()).toBe(`${baseURL}/login?next=%2Fendpoints`);
    expect(response.headers()["strict-transport-security"]).toBeUndefined();
  } finally {
    await forged.dispose();
  }
});

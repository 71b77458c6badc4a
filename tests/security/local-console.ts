import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ControlPlane, localAwsEnvironment, startControlPlane } from "@decision-console/local-aws";
import { testStackFixture } from "@decision-console/local-aws/testing";
import { NextRequest } from "next/server";
import { vi } from "vitest";
import { type ApiRoute, consoleApi } from "@/contract/api.ts";
import { proxy } from "@/proxy.ts";
import { matchesPattern } from "@/server/auth/policy.ts";
import { PEER_ADDRESS_HEADER } from "@/server/http/forwarded.ts";
import { closeConsoleStore } from "@/server/store/console-database.ts";
import { addUser, consoleOrigin, sessionCookieFor } from "./support.ts";

export type Caller = "anonymous" | "viewer" | "operator";

export interface SendOptions {
  as?: Caller;
  /** A value is sent as JSON; a string as it is (so a test can send text that is not JSON). */
  body?: unknown;
  contentType?: string;
  /** The TCP peer the console's server hook would stamp. */
  peer?: string;
}

export interface LocalConsole {
  plane: ControlPlane;
  /** The prefix the local stack's console policy allows (CONSOLE_RESOURCE_PREFIX). */
  prefix: string;
  dataDir: string;
  /** A request as the server handles it: the proxy's gate, then the route handler when the gate lets it through. */
  send(method: string, pathAndQuery: string, options?: SendOptions): Promise<Response>;
  close(): Promise<void>;
}

const appDir = path.resolve(import.meta.dirname, "../../app");

/** The contract entry a request path and method belong to, with its decoded path parameters. */
export function routeOf(method: string, pathname: string): { route: ApiRoute; params: Record<string, string> } {
  const candidates = Object.values(consoleApi as Record<string, ApiRoute>).filter(
    (route) => route.method === method && matchesPattern(route.path, pathname),
  );
  // A literal segment beats a parameter, as in Next.js.
  const route = candidates.sort((a, b) => a.path.split("[").length - b.path.split("[").length)[0];
  if (!route) throw new Error(`no route in contract/api.ts for ${method} ${pathname}`);
  const got = pathname.split("/").filter(Boolean);
  const params: Record<string, string> = {};
  route.path
    .split("/")
    .filter(Boolean)
    .forEach((segment, i) => {
      if (segment.startsWith("[")) params[segment.slice(1, -1)] = decodeURIComponent(got[i] ?? "");
    });
  return { route, params };
}

/**
 * The console against a real local control plane, with a viewer and an operator signed in. The console context is
 * built first by the background work's module copy (evaluation runs resumed, as `instrumentation.ts` does) and the route
 * handlers are loaded afresh after it, so they see the context and its errors from another copy of every module,
 * as a Next.js server process does.
 */
export async function startLocalConsole(): Promise<LocalConsole> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "console-local-walk-"));
  const saved = { ...process.env };
  const plane = await startControlPlane({
    fixture: testStackFixture(),
    dataDir: path.join(dataDir, "aws"),
    port: 0,
    waitForEndpoints: false,
  });
  for (const name of ["CONSOLE_USERS", "CONSOLE_USERS_FILE", "CONSOLE_OIDC_ISSUER", "CONSOLE_PUBLIC_ORIGIN"]) {
    delete process.env[name];
  }
  Object.assign(process.env, localAwsEnvironment(plane), {
    CONSOLE_DATA_DIR: path.join(dataDir, "console"),
    CONSOLE_SESSION_SECRET: "test-session-secret-that-is-long-enough-0123456789",
  });
  await addUser("vera", "viewer");
  await addUser("otto", "operator");
  const cookies: Record<Caller, string | undefined> = {
    anonymous: undefined,
    viewer: await sessionCookieFor("vera", "viewer"),
    operator: await sessionCookieFor("otto", "operator"),
  };

  vi.resetModules();
  const { evaluationDeps } = await import("@/server/context.ts");
  await (await import("@/server/evaluate/runs/run-registry.ts")).resumeUnfinishedRuns(evaluationDeps());
  vi.resetModules();

  const modules = new Map<string, Record<string, unknown>>();
  async function handlerOf(route: ApiRoute) {
    let module = modules.get(route.path);
    if (!module) {
      module = (await import(/* @vite-ignore */ path.join(appDir, route.path, "route.ts"))) as Record<string, unknown>;
      modules.set(route.path, module);
    }
    const handler = module[route.method];
    if (typeof handler !== "function") throw new Error(`${route.path}/route.ts exports no ${route.method}`);
    return handler as (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
  }

  return {
    plane,
    prefix: plane.resourcePrefix,
    dataDir,
    async send(method, pathAndQuery, options = {}) {
      const url = new URL(pathAndQuery, consoleOrigin);
      const text =
        options.body === undefined
          ? undefined
          : typeof options.body === "string"
            ? options.body
            : JSON.stringify(options.body);
      const headers: Record<string, string> = {
        host: "127.0.0.1:3000",
        ...(cookies[options.as ?? "operator"] ? { cookie: cookies[options.as ?? "operator"]! } : {}),
        ...(method === "GET" ? {} : { origin: consoleOrigin, "sec-fetch-site": "same-origin" }),
        ...(text === undefined
          ? {}
          : {
              "content-type": options.contentType ?? "application/json",
              "content-length": String(Buffer.byteLength(text)),
            }),
        ...(options.peer ? { [PEER_ADDRESS_HEADER]: options.peer } : {}),
      };
      const gated = await proxy(new NextRequest(url, { method, headers, body: text }));
      if (gated.headers.get("x-middleware-next") !== "1") return gated;
      const { route, params } = routeOf(method, url.pathname);
      const handler = await handlerOf(route);
      return handler(new Request(url, { method, headers, body: text }), { params: Promise.resolve(params) });
    },
    async close() {
      await plane.close();
      await closeConsoleStore();
      process.env = saved;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A two-item labelled decision set, uploaded by the operator; its id. */
export async function uploadDataset(local: LocalConsole): Promise<string> {
  const line = (id: string, answer: string) =>
    JSON.stringify({
      id,
      state: "The invoice is overdue by 40 days.",
      question: "Escalate?",
      options: [
        { id: "no", description: "Wait" },
        { id: "yes", description: "Escalate" },
      ],
      answer,
    });
  const response = await local.send("POST", "/api/datasets", {
    body: { name: "walk", text: [line("a", "yes"), line("b", "no")].join("\n") },
  });
  if (response.status !== 201) throw new Error(`dataset upload: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

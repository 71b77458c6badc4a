import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditRecord } from "@/contract/audit/audit.ts";
import { listAudit } from "@/server/audit/record.ts";
import { createRefusalLog } from "@/server/audit/refusals.ts";
import { type GateOptions, gate } from "@/server/auth/gate.ts";
import { PEER_ADDRESS_HEADER } from "@/server/http/forwarded.ts";
import { consoleStore } from "@/server/store/console-database.ts";
import { addUser, consoleOrigin, sessionCookieFor, useTemporaryConsole } from "./support.ts";

/**
 * Security issue 25, item 9: the gate's refusals (a role too low, a cross-site request, a name the console does not
 * manage) and a handler's role refusal are written to the audit log, at most a bounded number per caller and in all.
 */

let temp: ReturnType<typeof useTemporaryConsole>;
let viewer: string;
let operator: string;
beforeAll(async () => {
  temp = useTemporaryConsole();
  process.env.CONSOLE_RESOURCE_PREFIX = "dc-";
  await addUser("vera", "viewer");
  await addUser("otto", "operator");
  viewer = await sessionCookieFor("vera", "viewer");
  operator = await sessionCookieFor("otto", "operator");
});
afterAll(() => temp.restore());

function request(method: string, path: string, headers: Record<string, string>) {
  const body = method === "GET" ? undefined : "{}";
  return new NextRequest(`${consoleOrigin}${path}`, {
    method,
    body,
    headers: {
      host: "127.0.0.1:3000",
      ...(body ? { "content-type": "application/json", origin: consoleOrigin, "sec-fetch-site": "same-origin" } : {}),
      ...headers,
    },
  });
}

function refusals(): Promise<AuditRecord[]> {
  return listAudit({ limit: 500, action: "request.refuse" }, consoleStore());
}

async function clearAudit() {
  await consoleStore().deleteFrom("audit_log").execute();
}

/** A fresh log per test, on a clock the test moves. */
function options(clock: { now: number }): GateOptions {
  return { refusals: createRefusalLog(undefined, () => clock.now) };
}

describe("refused requests in the audit log", () => {
  it("a viewer's call of an operator route: who, what, from where and why", async () => {
    await clearAudit();
    const refused = await gate(
      request("DELETE", "/api/endpoints/dc-demo", { cookie: viewer, [PEER_ADDRESS_HEADER]: "10.0.0.7" }),
      options({ now: 0 }),
    );
    expect(refused?.status).toBe(403);
    expect(await refusals()).toMatchObject([
      {
        actor: "vera",
        target: "DELETE /api/endpoints/dc-demo",
        result: "denied",
        detail: {
          status: 403,
          address: "10.0.0.7",
          reason: "DELETE /api/endpoints/dc-demo needs the operator role; you are signed in as vera (viewer).",
        },
      },
    ]);
  });

  it("a cross-site request names whose session it carried", async () => {
    await clearAudit();
    const refused = await gate(
      request("POST", "/api/endpoints", { cookie: operator, origin: "https://evil.example" }),
      options({ now: 0 }),
    );
    expect(refused?.status).toBe(403);
    const [row] = await refusals();
    expect(row).toMatchObject({ actor: "otto", target: "POST /api/endpoints", result: "denied" });
    expect((row?.detail as { reason?: string } | undefined)?.reason).toMatch(/^Cross-site request refused/);
  });

  it("a name outside the console's prefix", async () => {
    await clearAudit();
    expect(
      (await gate(request("GET", "/api/endpoints/team-b-prod", { cookie: viewer }), options({ now: 0 })))?.status,
    ).toBe(403);
    expect(await refusals()).toMatchObject([{ actor: "vera", target: "GET /api/endpoints/team-b-prod" }]);
  });

  it("a handler's own role check (a viewer's batch evaluation)", async () => {
    await clearAudit();
    const { POST } = await import("@/app/api/evaluations/route.ts");
    const response = await POST(
      new Request(`${consoleOrigin}/api/evaluations`, {
        method: "POST",
        headers: { host: "127.0.0.1:3000", cookie: viewer, "content-type": "application/json" },
        body: JSON.stringify({ datasetId: "d", batch: { modelName: "dc-m", instanceType: "ml.m5.large" } }),
      }),
    );
    expect(response.status).toBe(403);
    expect(await refusals()).toMatchObject([{ actor: "vera", target: "POST /api/evaluations", result: "denied" }]);
  });

  it("a flood of 1000 refusals from one caller writes at most the per-caller burst, then the count it left out", async () => {
    await clearAudit();
    const clock = { now: 0 };
    const gateOptions = options(clock);
    for (let i = 0; i < 1000; i++) {
      const refused = await gate(request("DELETE", `/api/endpoints/dc-${i}`, { cookie: viewer }), gateOptions);
      expect(refused?.status).toBe(403);
    }
    const written = await refusals();
    console.log(JSON.stringify({ flood: { sent: 1000, written: written.length } }));
    expect(written.length).toBe(20);
    clock.now += 60_000;
    await gate(request("DELETE", "/api/endpoints/dc-late", { cookie: viewer }), gateOptions);
    const [latest] = await refusals();
    expect(latest?.target).toBe("DELETE /api/endpoints/dc-late");
    expect(latest?.detail).toMatchObject({ notWrittenBefore: 980 });
  });

  it("a flood from 5000 addresses writes at most the console-wide bound", async () => {
    await clearAudit();
    const gateOptions = options({ now: 0 });
    for (let i = 0; i < 5000; i++) {
      const peer = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
      await gate(
        request("POST", "/api/endpoints", { "sec-fetch-site": "cross-site", [PEER_ADDRESS_HEADER]: peer }),
        gateOptions,
      );
    }
    const written = await refusals();
    console.log(JSON.stringify({ flood: { sent: 5000, written: written.length } }));
    expect(written.length).toBe(200);
    expect(new Set(written.map((row) => (row.detail as { address: string }).address)).size).toBe(200);
  });
});

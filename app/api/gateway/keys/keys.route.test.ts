import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { GatewayKey, GatewayKeyList } from "@/contract/gateway/keys.ts";
import { listAudit } from "@/server/audit/record.ts";
import { authenticateGatewayKey } from "@/server/gateway/key-store.ts";
import { consoleStore } from "@/server/store/console-database.ts";
import { consoleOrigin, useTemporaryConsole } from "@/tests/security/support.ts";
import { POST as REVOKE } from "./[id]/revoke/route.ts";
import { PATCH } from "./[id]/route.ts";
import { GET, POST } from "./route.ts";

vi.mock("server-only", () => ({}));

let temp: ReturnType<typeof useTemporaryConsole>;
beforeAll(() => {
  temp = useTemporaryConsole();
});
afterAll(() => temp.restore());

const headers = { host: "127.0.0.1:3000", "content-type": "application/json" };
const send = (path: string, method: string, body?: unknown) =>
  new Request(`${consoleOrigin}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const byId = (id: string) => ({ params: Promise.resolve({ id }) });
const newKey = {
  name: "support-bot",
  endpoints: ["support-*"],
  aliases: { "jev-latest": "support-prod" },
  requestsPerMinute: 60,
  tokensPerMinute: 100_000,
  expiresAt: null,
};

describe("the gateway keys API", () => {
  it("creating a key shows its secret once; the list and the audit log never show it", async () => {
    const created = await POST(send("/api/gateway/keys", "POST", newKey));
    expect(created.status).toBe(201);
    const { key, secret } = (await created.json()) as { key: GatewayKey; secret: string };
    expect(secret).toMatch(/^dcg_/);
    const listed = await GET(send("/api/gateway/keys", "GET"));
    const listText = await listed.text();
    expect((JSON.parse(listText) as GatewayKeyList).keys.map((k) => k.name)).toContain("support-bot");
    expect(listText).not.toContain(secret.slice(17));
    const [audit] = await listAudit({ limit: 1, action: "gateway.key.create" });
    expect(audit).toMatchObject({ actor: "local", target: "support-bot", result: "ok", detail: { id: key.id } });
    expect(JSON.stringify(audit)).not.toContain(secret.slice(17));
  });

  it("a changed limit is stored and audited", async () => {
    const { key } = (await (await POST(send("/api/gateway/keys", "POST", { ...newKey, name: "b" }))).json()) as {
      key: GatewayKey;
    };
    const changed = await PATCH(send(`/api/gateway/keys/${key.id}`, "PATCH", { requestsPerMinute: 5 }), byId(key.id));
    expect(((await changed.json()) as GatewayKey).requestsPerMinute).toBe(5);
    const [audit] = await listAudit({ limit: 1, action: "gateway.key.update" });
    expect(audit).toMatchObject({ target: key.id, result: "ok", detail: { requestsPerMinute: 5 } });
  });

  it("a revoked key is refused by the gateway from then on, and the revocation is audited", async () => {
    const { key, secret } = (await (
      await POST(send("/api/gateway/keys", "POST", { ...newKey, name: "c" }))
    ).json()) as {
      key: GatewayKey;
      secret: string;
    };
    const revoked = await REVOKE(send(`/api/gateway/keys/${key.id}/revoke`, "POST"), byId(key.id));
    expect(((await revoked.json()) as GatewayKey).revokedAt).not.toBeNull();
    expect(await authenticateGatewayKey(consoleStore(), secret)).toEqual({ refused: "revoked" });
    const [audit] = await listAudit({ limit: 1, action: "gateway.key.revoke" });
    expect(audit).toMatchObject({ target: key.id, result: "ok" });
  });

  it("a key without endpoints is refused 400 naming the field, and nothing is stored", async () => {
    const refused = await POST(send("/api/gateway/keys", "POST", { ...newKey, name: "d", endpoints: [] }));
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/^endpoints/);
    const listed = (await (await GET(send("/api/gateway/keys", "GET"))).json()) as GatewayKeyList;
    expect(listed.keys.map((k) => k.name)).not.toContain("d");
  });

  it("a second key with a name in use is refused 409", async () => {
    const again = await POST(send("/api/gateway/keys", "POST", newKey));
    expect(again.status).toBe(409);
  });
});

import { expect, it } from "vitest";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import { hashApiKey } from "./api-key.ts";
import { storeKeyLimits } from "./key-limits.ts";
import { authenticateGatewayKey, createGatewayKey, revokeGatewayKey, updateGatewayKey } from "./key-store.ts";

const request = {
  name: "support-bot",
  endpoints: ["support-*"],
  aliases: { "jev-latest": "support-prod" },
  requestsPerMinute: 2,
  tokensPerMinute: 100,
  expiresAt: null,
};

describeOnStores("gateway keys", (current) => {
  it("stores only the hash of a new key's secret, which carries a recognisable prefix", async () => {
    const { store } = current();
    const { key, secret } = await createGatewayKey(store, request, "ana");
    expect(secret).toMatch(/^dcg_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    const row = await store.selectFrom("gateway_keys").selectAll().where("id", "=", key.id).executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(hashApiKey(secret));
    expect(JSON.stringify(row)).not.toContain(secret.slice(17));
    expect(await authenticateGatewayKey(store, secret)).toEqual({ key });
  });

  it("refuses a missing, wrong, revoked and expired key, each for its reason", async () => {
    const { store } = current();
    const { key, secret } = await createGatewayKey(store, request, "ana");
    const wrongSecret = `${secret.slice(0, -4)}AAAA`;
    expect(await authenticateGatewayKey(store, null)).toEqual({ refused: "missing" });
    expect(await authenticateGatewayKey(store, "sk-not-ours")).toEqual({ refused: "unknown" });
    expect(await authenticateGatewayKey(store, wrongSecret)).toEqual({ refused: "unknown" });
    await updateGatewayKey(store, key.id, { expiresAt: "2026-01-01T00:00:00Z" });
    expect(await authenticateGatewayKey(store, secret, new Date("2026-01-02T00:00:00Z"))).toEqual({
      refused: "expired",
    });
    await revokeGatewayKey(store, key.id);
    expect(await authenticateGatewayKey(store, secret)).toEqual({ refused: "revoked" });
  });

  it("a key's requests per minute are counted in the store, for every store handle alike", async () => {
    const { store } = current();
    const { key } = await createGatewayKey(store, request, "ana");
    const clock = () => 1_000_000;
    const replicaA = storeKeyLimits(store, clock);
    const replicaB = storeKeyLimits(store, clock);
    expect(await replicaA.admit(key)).toBeNull();
    expect(await replicaB.admit(key)).toBeNull();
    expect(await replicaA.admit(key)).toEqual({ limit: "requests", retryAfterSeconds: 30 });
    expect(await storeKeyLimits(store, () => 1_030_000).admit(key)).toBeNull();
  });

  it("calls admitted at once on two replicas never pass a key's requests per minute", async () => {
    const { store } = current();
    const { key } = await createGatewayKey(store, { ...request, requestsPerMinute: 5 }, "ana");
    const clock = () => 2_000_000;
    const replicas = [storeKeyLimits(store, clock), storeKeyLimits(store, clock)];
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => replicas[i % 2]!.admit(key)));
    expect(outcomes.filter((outcome) => outcome === null)).toHaveLength(5);
    expect(outcomes.filter((outcome) => outcome !== null)).toEqual(
      Array.from({ length: 7 }, () => ({ limit: "requests", retryAfterSeconds: 12 })),
    );
  });

  it("tokens used past a key's tokens per minute refuse its next call until the debt has refilled", async () => {
    const { store } = current();
    const { key } = await createGatewayKey(store, { ...request, requestsPerMinute: 100 }, "ana");
    const limits = storeKeyLimits(store, () => 0);
    expect(await limits.admit(key)).toBeNull();
    await limits.charge(key, 160);
    expect(await limits.admit(key)).toEqual({ limit: "tokens", retryAfterSeconds: 36 });
    expect(await storeKeyLimits(store, () => 36_001).admit(key)).toBeNull();
  });

  it("admitting a call proves its key: a revoked or changed key is not admitted and spends nothing", async () => {
    const { store } = current();
    const { key } = await createGatewayKey(store, request, "ana");
    const limits = storeKeyLimits(store, () => 3_000_000);
    const changed = await updateGatewayKey(store, key.id, { endpoints: ["support-prod"] });
    expect(await limits.admit(key)).toBe("key-changed");
    expect(await limits.admit(changed)).toBeNull();
    expect(await limits.admit(changed)).toBeNull();
    await revokeGatewayKey(store, key.id);
    expect(await limits.admit(changed)).toBe("key-changed");
    const bucket = await store
      .selectFrom("gateway_buckets")
      .select("tokens")
      .where("bucket", "=", `${key.id}:requests`)
      .executeTakeFirstOrThrow();
    expect(bucket.tokens).toBe(0);
  });
});

import { SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import { expect, it } from "vitest";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import type { Store } from "../store/store.ts";
import { type DecisionProtocol, serveDecision } from "./decision-gateway.ts";
import { storeKeyLimits } from "./key-limits.ts";
import { createGatewayKey, revokeGatewayKey, updateGatewayKey } from "./key-store.ts";
import { knownKeys } from "./known-keys.ts";

/** A SageMaker Runtime that nothing listens for: a call that gets past the key, its scope and limits fails there. */
const unreachableRuntime = new SageMakerRuntimeClient({
  region: "us-east-1",
  endpoint: "http://127.0.0.1:9",
  credentials: { accessKeyId: "AKIDGATEWAYTEST", secretAccessKey: "gateway-test" },
  maxAttempts: 1,
});

/** One console replica's gateway: its own known keys, the store shared. */
function replica(store: Store) {
  const deps = { store, runtime: unreachableRuntime, limits: storeKeyLimits(store), keys: knownKeys(store) };
  return async (secret: string, body: unknown, protocol: DecisionProtocol = "decisions") => {
    const request = new Request(`http://console.test/v1/${protocol}`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await serveDecision(request, protocol, deps);
    if (answer.status !== 401) await recorded(store, answer.headers.get("x-request-id") ?? "");
    return { status: answer.status, error: ((await answer.json()) as { error?: { code?: string } }).error?.code };
  };
}

/** Waits for the usage row the gateway writes after a call past its key check has been answered. */
async function recorded(store: Store, inferenceId: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  const row = () => store.selectFrom("gateway_usage").select("id").where("inference_id", "=", inferenceId);
  while (!(await row().executeTakeFirst())) {
    if (Date.now() > deadline) throw new Error(`the call ${inferenceId} was not recorded`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const decision = (model: string) => ({
  model,
  input: "I was charged twice.",
  questions: [{ type: "predicate", name: "refund", instructions: "The customer asks for money back." }],
});
const keyRequest = {
  name: "support-bot",
  endpoints: ["support-*"],
  aliases: {},
  requestsPerMinute: 100,
  tokensPerMinute: 100_000,
  expiresAt: null,
};

describeOnStores("the decision gateway's key check", (current) => {
  it("a key a replica read on an earlier call and that was revoked since is refused with 401, whatever the body", async () => {
    const { store } = current();
    const { key, secret } = await createGatewayKey(store, keyRequest, "ana");
    const [a, b] = [replica(store), replica(store)];
    for (const call of [a, b]) expect(await call(secret, decision("billing-prod"))).toMatchObject({ status: 403 });
    await revokeGatewayKey(store, key.id);
    expect(await a(secret, decision("support-prod"))).toEqual({ status: 401, error: "invalid_api_key" });
    expect(await b(secret, { model: "support-prod" })).toEqual({ status: 401, error: "invalid_api_key" });
    expect(await b(secret, decision("billing-prod"))).toEqual({ status: 401, error: "invalid_api_key" });
  });

  it("a key's changed scope holds from the next call on a replica that read it before", async () => {
    const { store } = current();
    const { key, secret } = await createGatewayKey(store, keyRequest, "ana");
    const call = replica(store);
    expect(await call(secret, decision("billing-prod"))).toMatchObject({ status: 403, error: "model_not_permitted" });
    await updateGatewayKey(store, key.id, { endpoints: ["billing-*"] });
    // Past the key, its scope and its limits: the call reaches SageMaker, which nothing answers here.
    expect(await call(secret, decision("billing-prod"))).toMatchObject({ status: 503 });
    expect(await call(secret, decision("support-prod"))).toMatchObject({ status: 403, error: "model_not_permitted" });
  });

  it("a key's lowered limit holds from the next call on a replica that read it before", async () => {
    const { store } = current();
    const { key, secret } = await createGatewayKey(store, keyRequest, "ana");
    const call = replica(store);
    expect(await call(secret, decision("support-prod"))).toMatchObject({ status: 503 });
    await updateGatewayKey(store, key.id, { requestsPerMinute: 1 });
    // The bucket holds at most the new minute's allowance: one call more, then none.
    expect(await call(secret, decision("support-prod"))).toMatchObject({ status: 503 });
    expect(await call(secret, decision("support-prod"))).toEqual({ status: 429, error: "rate_limit_exceeded" });
  });

  it("a wrong secret for a known key's id is refused, and the key's own secret still works", async () => {
    const { store } = current();
    const { secret } = await createGatewayKey(store, keyRequest, "ana");
    const call = replica(store);
    expect(await call(secret, decision("support-prod"))).toMatchObject({ status: 503 });
    expect(await call(`${secret.slice(0, -4)}AAAA`, decision("support-prod"))).toEqual({
      status: 401,
      error: "invalid_api_key",
    });
    expect(await call(secret, decision("support-prod"))).toMatchObject({ status: 503 });
  });
});

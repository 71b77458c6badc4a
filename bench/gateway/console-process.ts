import type { AwsClientOptions } from "../../server/aws/clients.ts";
import { createAwsClients } from "../../server/aws/clients.ts";
import { closeConsoleStore, consoleStore } from "../../server/store/console-database.ts";
import { serveRoutes } from "../../tests/support/route-server.ts";
import { answerParent, decisionBody, reply } from "./processes.ts";

/**
 * bench:gateway's console: the gateway's route handlers served over loopback HTTP through the console's proxy
 * (tests/support/route-server.ts, a plain Node HTTP server, not `next start`), with the console's SQLite store
 * (CONSOLE_DATA_DIR), in a process of its own, as a console replica is. Its SageMaker Runtime client and endpoint
 * come as its one argument (JSON). Replies with its URL and a key; then, for each round, times the gateway's own
 * phases one by one here, where the gateway does that work; on "close" replies with the calls it recorded.
 */
const { runtime: runtimeOptions, endpoint } = JSON.parse(process.argv[2]!) as {
  runtime: AwsClientOptions;
  endpoint: string;
};
const { readDecisionBody, serveDecision } = await import("../../server/gateway/decision-gateway.ts");
const { gatewayRoute } = await import("../../server/gateway/gateway-route.ts");
const { storeKeyLimits } = await import("../../server/gateway/key-limits.ts");
const { createGatewayKey } = await import("../../server/gateway/key-store.ts");
const { knownKeys } = await import("../../server/gateway/known-keys.ts");
const { recordGatewayCall } = await import("../../server/gateway/usage.ts");

const store = consoleStore();
const benchKey = (name: string) =>
  createGatewayKey(
    store,
    {
      name,
      endpoints: [endpoint],
      aliases: {},
      requestsPerMinute: 100_000,
      tokensPerMinute: 100_000_000,
      expiresAt: null,
    },
    "bench",
  );
const { key, secret } = await benchKey("bench");
// The phases' own store writes go to a key of their own, so the recorded gateway calls stay the gateway's.
const { key: phaseKey } = await benchKey("bench-phases");
const deps = {
  store,
  runtime: createAwsClients(runtimeOptions).runtime,
  limits: storeKeyLimits(store),
  keys: knownKeys(store),
};
const POST = gatewayRoute("systemone", (incoming) => serveDecision(incoming, "systemone", deps));
let storedAnswer = new Uint8Array();
const hop = gatewayRoute("systemone", async (incoming) => {
  await incoming.arrayBuffer();
  return new Response(Buffer.from(storedAnswer), { headers: { "content-type": "application/json" } });
});
// The hop goes to another gateway path, so the proxy does what it does for /v1/systemone.
const server = await serveRoutes({ "/v1/systemone": { POST }, "/v1/decisions": { POST: hop } });

const timed = async (work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};
const bodyRequest = (round: number) =>
  new Request(`${server.url}/v1/systemone`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(decisionBody(endpoint, round)),
  });
const phases: Record<string, (round: number) => Promise<number>> = {
  "key known (SHA-256 of the presented key)": () => timed(() => deps.keys.presented(secret)),
  "body read and validated": (round) => {
    const request = bodyRequest(round);
    return timed(() => readDecisionBody(request, "systemone"));
  },
  "key proven and limits admitted (one store statement)": () => timed(() => deps.limits.admit(phaseKey)),
  "answer parsed and built": () =>
    timed(async () => {
      const decided = JSON.parse(new TextDecoder().decode(storedAnswer)) as Record<string, unknown>;
      await Response.json({ ...decided, x_inference_id: "bench" }).arrayBuffer();
    }),
  "after the answer, not awaited: tokens charged and call recorded": (round) =>
    timed(() =>
      Promise.all([
        deps.limits.charge(phaseKey, 1),
        recordGatewayCall(store, {
          keyId: phaseKey.id,
          endpointName: endpoint,
          protocol: "systemone",
          status: 200,
          inputTokens: 0,
          outputTokens: 0,
          latencyMs: 0,
          inferenceId: `bench-phase-${round}`,
          atMs: Date.now(),
        }),
      ]),
    ),
};

export type ConsoleMessage = { answer: number[] } | { phases: number } | { close: true };

await reply(async () => ({ url: server.url, secret, phases: Object.keys(phases) }));
answerParent(async (message: ConsoleMessage) => {
  if ("answer" in message) {
    storedAnswer = Uint8Array.from(message.answer);
    return null;
  }
  if ("phases" in message) {
    const timings: number[] = [];
    for (const phase of Object.values(phases)) timings.push(await phase(message.phases));
    return timings;
  }
  await server.close();
  const recorded = await store
    .selectFrom("gateway_usage")
    .select("id")
    .where("key_id", "=", key.id)
    .where("status", "=", 200)
    .execute();
  await closeConsoleStore();
  setImmediate(() => process.exit(0));
  return recorded.length;
});

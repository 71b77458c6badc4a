import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { nearestRankQuantile } from "@decision-console/adapter/contract";
import { startControlPlane } from "@decision-console/local-aws";
import { localAdapterImageUri, publishModelArchive } from "@decision-console/local-aws/testing";
import { benchModelPath, benchOut } from "../adapter/bench/bench-files.ts";
import type { ModelKind } from "../adapter/test/support/llama-model.ts";
import { deployRequestSchema } from "../contract/endpoints/deploy.ts";
import { workspaceStackFixture } from "../infra/local-stack/workspace-fixture.ts";
import { consoleClientsFor } from "../server/aws/local-console-clients.ts";
import { deployEndpoint } from "../server/endpoints/deploy.ts";
import { invokeEndpointBytes } from "../server/invoke/invoke.ts";

/**
 * npm run bench:gateway -- [--model path.gguf | --kind tiny] [--requests 200] [--warmup 20] [--threads 1]
 *
 * What the decision gateway adds to a decision, in local mode, on loopback: one endpoint, called each round once
 * directly (InvokeEndpoint with the console's SageMaker Runtime client) and once through the gateway
 * (`POST /v1/systemone` with a Bearer key, over HTTP to the console's proxy and route handler, which checks the key,
 * spends its limits in the console's SQLite store, calls InvokeEndpoint and records the call), in a random order so
 * drift in the machine's load falls on both alike. The same System One body both ways, a new ticket each round.
 * Prints p50 and p95 of each and the ratios gateway / direct, and ends with one JSON line on stdout (also
 * bench/out/gateway.json). The issue's target is a p50 ratio of at most 1.05 on the tiny model. The handlers are
 * served by a plain Node HTTP server here (tests/support/route-server.ts), not `next start`.
 *
 * Each round also times the gateway's phases one by one, with the same key, body and answer, so the table says where
 * the added time goes: the HTTP hop (client, server, proxy, a handler that answers a stored decision at once), the
 * key check, reading and validating the body, the limits' admission, building the answer, and what follows the
 * answer (tokens charged, the call recorded), which the gateway does not wait for.
 */
const { values } = parseArgs({
  options: {
    model: { type: "string" },
    kind: { type: "string", default: "tiny" },
    requests: { type: "string", default: "200" },
    warmup: { type: "string", default: "20" },
    threads: { type: "string", default: "1" },
  },
});
const requests = Number(values.requests);
const warmup = Number(values.warmup);
const gguf = benchModelPath(values.model, values.kind as ModelKind);

const quantile = (sorted: number[], q: number) => nearestRankQuantile(sorted, q) ?? 0;
const summary = (latencies: number[]) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50Ms: quantile(sorted, 0.5), p95Ms: quantile(sorted, 0.95) };
};

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-gateway-"));
process.env.LOCAL_ADAPTER_THREADS = values.threads;
process.env.CONSOLE_DATA_DIR = path.join(dataDir, "console");
const plane = await startControlPlane({
  fixture: workspaceStackFixture(),
  dataDir: path.join(dataDir, "aws"),
  port: 0,
});
const { serveRoutes } = await import("../tests/support/route-server.ts");
const { consoleStore, closeConsoleStore } = await import("../server/store/console-database.ts");
const { readDecisionBody, serveDecision } = await import("../server/gateway/decision-gateway.ts");
const { gatewayRoute } = await import("../server/gateway/gateway-route.ts");
const { storeKeyLimits } = await import("../server/gateway/key-limits.ts");
const { knownKeys } = await import("../server/gateway/known-keys.ts");
const { authenticateGatewayKey, createGatewayKey } = await import("../server/gateway/key-store.ts");
const { recordGatewayCall } = await import("../server/gateway/usage.ts");
try {
  const modelDataUrl = await publishModelArchive(plane, "gateway-bench", gguf, dataDir);
  const { sageMaker, runtime } = consoleClientsFor(plane);
  const endpoint = "dc-bench-gateway";
  const request = deployRequestSchema.parse({
    name: endpoint,
    imageUri: localAdapterImageUri(plane),
    modelDataUrl,
    compute: { kind: "cpu", instanceType: "ml.c6i.large", threads: Number(values.threads) },
  });
  await deployEndpoint(sageMaker, request, {
    defaultExecutionRoleArn: plane.executionRoleArn,
    resourceNamePrefix: plane.resourcePrefix,
    artifactBucket: plane.bucket,
  });
  await plane.endpoints.settled(endpoint);

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
  const deps = { store, runtime, limits: storeKeyLimits(store), keys: knownKeys(store) };
  const POST = gatewayRoute("systemone", (incoming) => serveDecision(incoming, "systemone", deps));
  let storedAnswer: Uint8Array = new Uint8Array();
  const hop = gatewayRoute("systemone", async (incoming) => {
    await incoming.arrayBuffer();
    return new Response(Buffer.from(storedAnswer), { headers: { "content-type": "application/json" } });
  });
  // The hop goes to another gateway path, so the proxy does what it does for /v1/systemone.
  const server = await serveRoutes({ "/v1/systemone": { POST }, "/v1/decisions": { POST: hop } });

  const body = (round: number) => ({
    model: endpoint,
    state: `I was charged twice for my subscription. Ticket ${round}, order ${(round * 7919) % 100_000}.`,
    questions: { refund: { type: "noul", instructions: "Does the customer ask for money back?" } },
  });
  const timed = async (work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    return performance.now() - started;
  };
  const direct = (round: number) =>
    timed(async () => {
      storedAnswer = (await invokeEndpointBytes(runtime, endpoint, body(round))).bytes;
    });
  const post = (path: string, round: number) =>
    timed(async () => {
      const answer = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${secret}` },
        body: JSON.stringify(body(round)),
      });
      const text = await answer.text();
      if (!answer.ok) throw new Error(`${path} answered ${answer.status}: ${text}`);
    });
  const gateway = (round: number) => post("/v1/systemone", round);
  const bodyRequest = (round: number) =>
    new Request(`${server.url}/v1/systemone`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body(round)),
    });
  const phases = {
    "HTTP hop and proxy (a handler answering a stored decision)": (round: number) => post("/v1/decisions", round),
    "key check (store read, SHA-256)": () => timed(() => authenticateGatewayKey(store, secret)),
    "body read and validated": (round: number) => {
      const request = bodyRequest(round);
      return timed(() => readDecisionBody(request, "systemone"));
    },
    "limits admitted (one store upsert)": () => timed(() => deps.limits.admit(phaseKey)),
    "answer parsed and built": () =>
      timed(async () => {
        const decided = JSON.parse(new TextDecoder().decode(storedAnswer)) as Record<string, unknown>;
        await Response.json({ ...decided, x_inference_id: "bench" }).arrayBuffer();
      }),
    "after the answer, not awaited: tokens charged and call recorded": (round: number) =>
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
  for (let i = 0; i < warmup; i++) {
    await direct(-1 - i);
    await gateway(-1 - i);
    for (const phase of Object.values(phases)) await phase(-1 - i);
  }
  const latencies = { direct: [] as number[], gateway: [] as number[] };
  const phaseLatencies = Object.fromEntries(Object.keys(phases).map((name) => [name, [] as number[]]));
  for (let round = 0; round < requests; round++) {
    const order = Math.random() < 0.5 ? (["direct", "gateway"] as const) : (["gateway", "direct"] as const);
    for (const arm of order) latencies[arm].push(await (arm === "direct" ? direct : gateway)(round));
    for (const [name, phase] of Object.entries(phases)) phaseLatencies[name]!.push(await phase(round));
  }
  await server.close();

  const directSummary = summary(latencies.direct);
  const gatewaySummary = summary(latencies.gateway);
  const phaseSummaries = Object.fromEntries(
    Object.entries(phaseLatencies).map(([name, latencies]) => [name, summary(latencies)]),
  );
  const recorded = await store
    .selectFrom("gateway_usage")
    .select("id")
    .where("key_id", "=", key.id)
    .where("status", "=", 200)
    .execute();
  const result = {
    bench: "gateway",
    model: path.basename(gguf),
    requests,
    recordedCalls: recorded.length,
    direct: directSummary,
    gateway: gatewaySummary,
    p50Ratio: gatewaySummary.p50Ms / directSummary.p50Ms,
    p95Ratio: gatewaySummary.p95Ms / directSummary.p95Ms,
    addedP50Ms: gatewaySummary.p50Ms - directSummary.p50Ms,
    // Each round's two calls ran back to back, so their difference leaves out most of the drift between rounds.
    pairedAdded: summary(latencies.gateway.map((latency, round) => latency - latencies.direct[round]!)),
    phases: phaseSummaries,
    target: "p50 ratio <= 1.05",
    cpus: os.availableParallelism(),
    loadAverage1m: os.loadavg()[0] ?? 0,
  };
  process.stderr.write(
    [
      `model ${result.model}, ${requests} rounds (direct and gateway once per round, random order), ${recorded.length} gateway calls recorded`,
      "| | p50 ms | p95 ms |",
      "| --- | ---: | ---: |",
      `| direct InvokeEndpoint | ${directSummary.p50Ms.toFixed(2)} | ${directSummary.p95Ms.toFixed(2)} |`,
      `| gateway /v1/systemone | ${gatewaySummary.p50Ms.toFixed(2)} | ${gatewaySummary.p95Ms.toFixed(2)} |`,
      `| ratio | ${result.p50Ratio.toFixed(3)} | ${result.p95Ratio.toFixed(3)} |`,
      `| added, gateway minus direct in the same round | ${result.pairedAdded.p50Ms.toFixed(2)} | ${result.pairedAdded.p95Ms.toFixed(2)} |`,
      "",
      `the gateway's phases, each timed alone in every round (load average ${result.loadAverage1m.toFixed(2)} on ${result.cpus} CPUs)`,
      "| phase | p50 ms | p95 ms |",
      "| --- | ---: | ---: |",
      ...Object.entries(phaseSummaries).map(
        ([name, phase]) => `| ${name} | ${phase.p50Ms.toFixed(3)} | ${phase.p95Ms.toFixed(3)} |`,
      ),
      "",
    ].join("\n"),
  );
  fs.mkdirSync(benchOut, { recursive: true });
  fs.writeFileSync(path.join(benchOut, "gateway.json"), `${JSON.stringify(result)}\n`);
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await closeConsoleStore();
  await plane.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

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
 * bench/out/gateway.json). The target is a p50 ratio of at most 1.05 on the tiny model. The handlers are
 * served by a plain Node HTTP server here (tests/support/route-server.ts), not `next start`.
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
const { serveDecision } = await import("../server/gateway/decision-gateway.ts");
const { gatewayRoute } = await import("../server/gateway/gateway-route.ts");
const { storeKeyLimits } = await import("../server/gateway/key-limits.ts");
const { createGatewayKey } = await import("../server/gateway/key-store.ts");
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
  const { secret } = await createGatewayKey(
    store,
    {
      name: "bench",
      endpoints: [endpoint],
      aliases: {},
      requestsPerMinute: 100_000,
      tokensPerMinute: 100_000_000,
      expiresAt: null,
    },
    "bench",
  );
  const deps = { store, runtime, limits: storeKeyLimits(store) };
  const POST = gatewayRoute("systemone", (incoming) => serveDecision(incoming, "systemone", deps));
  const server = await serveRoutes({ "/v1/systemone": { POST } });

  const body = (round: number) => ({
    model: endpoint,
    state: `I was charged twice for my subscription. Ticket ${round}, order ${(round * 7919) % 100_000}.`,
    questions: { refund: { type: "noul", instructions: "Does the customer ask for money back?" } },
  });
  const direct = async (round: number) => {
    const started = performance.now();
    await invokeEndpointBytes(runtime, endpoint, body(round));
    return performance.now() - started;
  };
  const gateway = async (round: number) => {
    const started = performance.now();
    const answer = await fetch(`${server.url}/v1/systemone`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${secret}` },
      body: JSON.stringify(body(round)),
    });
    const text = await answer.text();
    if (!answer.ok) throw new Error(`the gateway answered ${answer.status}: ${text}`);
    return performance.now() - started;
  };
  for (let i = 0; i < warmup; i++) {
    await direct(-1 - i);
    await gateway(-1 - i);
  }
  const latencies = { direct: [] as number[], gateway: [] as number[] };
  for (let round = 0; round < requests; round++) {
    const order = Math.random() < 0.5 ? (["direct", "gateway"] as const) : (["gateway", "direct"] as const);
    for (const arm of order) latencies[arm].push(await (arm === "direct" ? direct : gateway)(round));
  }
  await server.close();

  const directSummary = summary(latencies.direct);
  const gatewaySummary = summary(latencies.gateway);
  const recorded = await store.selectFrom("gateway_usage").select("id").where("status", "=", 200).execute();
  const result = {
    bench: "gateway",
    model: path.basename(gguf),
    requests,
    recordedCalls: recorded.length,
    direct: directSummary,
    gateway: gatewaySummary,
    p50Ratio: gatewaySummary.p50Ms / directSummary.p50Ms,
    p95Ratio: gatewaySummary.p95Ms / directSummary.p95Ms,
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

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { nearestRankQuantile } from "@decision-console/adapter/contract";
import { startControlPlane } from "@decision-console/local-aws";
import { localAdapterImageUri, publishModelArchive, routeDecision } from "@decision-console/local-aws/testing";
import { benchModelPath, benchOut } from "../adapter/bench/bench-files.ts";
import type { ModelKind } from "../adapter/test/support/llama-model.ts";
import { deployRequestSchema } from "../contract/endpoints/deploy.ts";
import { ARTIFACT_PREFIXES } from "../contract/stack/console-contract.ts";
import { workspaceStackFixture } from "../infra/local-stack/workspace-fixture.ts";
import { consoleClientsFor } from "../server/aws/local-console-clients.ts";
import { deployEndpoint } from "../server/endpoints/deploy.ts";
import { invokeEndpoint } from "../server/invoke/invoke.ts";

/**
 * npm run bench:capture -- [--model path.gguf | --kind tiny] [--requests 300] [--warmup 20] [--threads 1]
 *
 * What data capture costs an invocation, in local mode, on loopback: two endpoints of the same model and settings,
 * deployed by the console, one capturing 100% of its invocations (input and output), one not. Each round calls both
 * once, one after the other in a random order, through the console's invoke path, so drift in the machine's load
 * falls on both alike. It prints the latency of each (median, mean, p95) and the ratios captured / not captured,
 * checks that every captured invocation was written, and ends with one JSON line on stdout (also
 * bench/out/capture-overhead.json). The target is a median ratio of at most 1.05.
 */
const { values } = parseArgs({
  options: {
    model: { type: "string" },
    kind: { type: "string", default: "tiny" },
    requests: { type: "string", default: "300" },
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
  return {
    medianMs: quantile(sorted, 0.5),
    meanMs: sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length),
    p95Ms: quantile(sorted, 0.95),
  };
};

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-capture-"));
process.env.LOCAL_ADAPTER_THREADS = values.threads;
const plane = await startControlPlane({ fixture: workspaceStackFixture(), dataDir, port: 0 });
try {
  const modelDataUrl = await publishModelArchive(plane, "capture-bench", gguf, dataDir);
  const { sageMaker, runtime } = consoleClientsFor(plane);
  const endpoints = { captured: "dc-bench-captured", plain: "dc-bench-plain" } as const;
  for (const [arm, name] of Object.entries(endpoints)) {
    const request = deployRequestSchema.parse({
      name,
      imageUri: localAdapterImageUri(plane),
      modelDataUrl,
      compute: { kind: "cpu", instanceType: "ml.c6i.large", threads: Number(values.threads) },
      ...(arm === "captured" ? { dataCapture: { samplingPercentage: 100 } } : {}),
    });
    await deployEndpoint(sageMaker, request, {
      defaultExecutionRoleArn: plane.executionRoleArn,
      resourceNamePrefix: plane.resourcePrefix,
      artifactBucket: plane.bucket,
    });
  }
  await Promise.all(Object.values(endpoints).map((name) => plane.endpoints.settled(name)));

  // A new ticket each round (the same one to both endpoints): the adapter's decision cache never answers.
  const ticket = (round: number) => ({
    decision: {
      ...routeDecision.decision,
      id: `ticket-${round}`,
      state: `${routeDecision.decision.state} Ticket ${round}, order ${(round * 7919) % 100_000}.`,
    },
  });
  const timed = async (name: string, round: number) => {
    const started = performance.now();
    await invokeEndpoint(runtime, name, ticket(round));
    return performance.now() - started;
  };
  for (let i = 0; i < warmup; i++) {
    await timed(endpoints.captured, -1 - i);
    await timed(endpoints.plain, -1 - i);
  }
  await plane.capture.flush();
  const capturedBefore = countCaptured(endpoints.captured);

  const latencies = { captured: [] as number[], plain: [] as number[] };
  for (let round = 0; round < requests; round++) {
    const order = Math.random() < 0.5 ? (["captured", "plain"] as const) : (["plain", "captured"] as const);
    for (const arm of order) latencies[arm].push(await timed(endpoints[arm], round));
  }
  await plane.capture.flush();
  const capturedRecords = countCaptured(endpoints.captured) - capturedBefore;
  if (capturedRecords !== requests) {
    throw new Error(`${requests} captured invocations, but ${capturedRecords} records were written`);
  }
  if (countCaptured(endpoints.plain) !== 0) throw new Error("the endpoint without capture wrote capture records");

  const captured = summary(latencies.captured);
  const plain = summary(latencies.plain);
  const result = {
    bench: "capture-overhead",
    model: path.basename(gguf),
    requests,
    capturedRecords,
    captured,
    notCaptured: plain,
    medianRatio: captured.medianMs / plain.medianMs,
    meanRatio: captured.meanMs / plain.meanMs,
    p95Ratio: captured.p95Ms / plain.p95Ms,
    target: "median ratio <= 1.05",
    cpus: os.availableParallelism(),
    loadAverage1m: os.loadavg()[0] ?? 0,
  };
  process.stderr.write(
    [
      `model ${result.model}, ${requests} rounds (each endpoint once per round, random order), ${capturedRecords} records captured`,
      "| | median ms | mean ms | p95 ms |",
      "| --- | ---: | ---: | ---: |",
      `| capture 100% | ${captured.medianMs.toFixed(2)} | ${captured.meanMs.toFixed(2)} | ${captured.p95Ms.toFixed(2)} |`,
      `| no capture | ${plain.medianMs.toFixed(2)} | ${plain.meanMs.toFixed(2)} | ${plain.p95Ms.toFixed(2)} |`,
      `| ratio | ${result.medianRatio.toFixed(3)} | ${result.meanRatio.toFixed(3)} | ${result.p95Ratio.toFixed(3)} |`,
      "",
    ].join("\n"),
  );
  fs.mkdirSync(benchOut, { recursive: true });
  fs.writeFileSync(path.join(benchOut, "capture-overhead.json"), `${JSON.stringify(result)}\n`);
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await plane.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** Records written under the endpoint's capture folder, counted line by line from the objects themselves. */
function countCaptured(endpoint: string): number {
  let records = 0;
  let after = "";
  for (;;) {
    const page = plane.objects.list(plane.bucket, `${ARTIFACT_PREFIXES.dataCapture}${endpoint}/`, after, 1000);
    for (const object of page) {
      records += fs
        .readFileSync(object.file, "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "").length;
    }
    if (page.length < 1000) return records;
    after = page.at(-1)?.key ?? "";
  }
}

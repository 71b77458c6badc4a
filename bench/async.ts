import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { SageMakerClient } from "@aws-sdk/client-sagemaker";
import { nearestRankQuantile } from "@decision-console/adapter/contract";
import { localClientConfig, startControlPlane } from "@decision-console/local-aws";
import { createEndpoint, localAdapterImageUri } from "@decision-console/local-aws/testing";
import { benchModel, benchOut } from "../adapter/bench/bench-files.ts";
import type { ModelKind } from "../adapter/test/support/llama-model.ts";
import { LOCAL_ARTIFACT_BUCKET, workspaceStackFixture } from "../infra/local-stack/workspace-fixture.ts";
import { consoleClientsFor } from "../server/aws/local-console-clients.ts";
import { asyncOutcome } from "../server/invoke/async-outcome.ts";
import { invokeEndpoint } from "../server/invoke/invoke.ts";
import { invokeEndpointAsync } from "../server/invoke/invoke-async.ts";

/**
 * npm run bench:async -- [--requests 48] [--clients 8] [--parallel 2] [--kind tiny] [--model file.gguf]
 *
 * Real-time with 503 retries against Asynchronous Inference, side by side in one run on the local control plane:
 * two endpoints of the same model, instance type and adapter settings (ADAPTER_PARALLEL = SEMIF_MAX_IN_FLIGHT =
 * MaxConcurrentInvocationsPerInstance = `--parallel`, reading cache off), driven by the same number of concurrent
 * clients through the console's own functions. Real-time clients retry "busy" with the console's policy;
 * asynchronous clients write the request to S3, call InvokeEndpointAsync and poll the output every 50 ms. It
 * prints completed decisions per second for both and, from the local queue's own times, the queue wait and the
 * service time of each asynchronous request (p50, p95) and their ratio. Loopback only; writes
 * bench/out/async.json; one JSON line ends stdout.
 */
const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "48" },
    clients: { type: "string", default: "8" },
    parallel: { type: "string", default: "2" },
    kind: { type: "string", default: "tiny" },
    model: { type: "string" },
    threads: { type: "string", default: "1" },
  },
});
const totalRequests = Number(values.requests);
const clients = Number(values.clients);
const parallel = values.parallel;
const POLL_MS = 50;
const REAL_TIME = "dc-bench-realtime";
const ASYNC = "dc-bench-async";

function modelFile(): string {
  if (values.model) return path.resolve(process.env.INIT_CWD ?? process.cwd(), values.model);
  return benchModel(values.kind as ModelKind);
}

/** A distinct decision per request, so no answer can come from a cache. */
function decision(index: number) {
  return {
    decision: {
      id: `bench-${index}`,
      state: `Ticket #${4800 + index}: the customer reports that the invoice for October was charged twice and asks for a refund.`,
      question: "Which team should handle this ticket?",
      options: [
        { id: "billing", description: "Billing: charges, refunds, invoices." },
        { id: "support", description: "Technical support: bugs and outages." },
        { id: "sales", description: "Sales: plans, upgrades, quotes." },
      ],
    },
  };
}

const round = (value: number) => Math.round(value * 100) / 100;
const quantile = (values: number[], q: number) =>
  nearestRankQuantile(
    [...values].sort((a, b) => a - b),
    q,
  ) ?? Number.NaN;

/** `clients` workers taking the next request index until `totalRequests` are done; seconds for all of them. */
async function drive(send: (index: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let index = next++; index < totalRequests; index = next++) await send(index);
    }),
  );
  return (performance.now() - started) / 1000;
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-async-"));
  const plane = await startControlPlane({ dataDir, port: 0, fixture: workspaceStackFixture() });
  const STACK_EXECUTION_ROLE = plane.executionRoleArn;
  try {
    const admin = localClientConfig(plane, "admin");
    const { s3, runtime } = consoleClientsFor(plane);
    await new S3Client({ ...admin, forcePathStyle: true }).send(
      new PutObjectCommand({
        Bucket: LOCAL_ARTIFACT_BUCKET,
        Key: "models/bench-async/model.gguf",
        Body: fs.readFileSync(modelFile()),
      }),
    );
    const container = {
      Image: localAdapterImageUri(plane),
      ModelDataSource: {
        S3DataSource: {
          S3Uri: `s3://${LOCAL_ARTIFACT_BUCKET}/models/bench-async/`,
          S3DataType: "S3Prefix" as const,
          CompressionType: "None" as const,
        },
      },
      Environment: {
        ADAPTER_THREADS: values.threads,
        ADAPTER_PARALLEL: parallel,
        SEMIF_MAX_IN_FLIGHT: parallel,
        ADAPTER_READING_CACHE: "0",
      },
    };
    const adminSageMaker = new SageMakerClient(admin);
    await createEndpoint(adminSageMaker, REAL_TIME, container, { executionRoleArn: STACK_EXECUTION_ROLE });
    await createEndpoint(adminSageMaker, ASYNC, container, {
      executionRoleArn: STACK_EXECUTION_ROLE,
      asyncInference: {
        OutputConfig: {
          S3OutputPath: `s3://${LOCAL_ARTIFACT_BUCKET}/async/${ASYNC}/out/`,
          S3FailurePath: `s3://${LOCAL_ARTIFACT_BUCKET}/async/${ASYNC}/failed/`,
        },
        ClientConfig: { MaxConcurrentInvocationsPerInstance: Number(parallel) },
      },
    });
    await Promise.all([plane.endpoints.settled(REAL_TIME), plane.endpoints.settled(ASYNC)]);
    // One warm-up decision each, not counted.
    await invokeEndpoint(runtime, REAL_TIME, decision(-1));

    let retries = 0;
    const realTimeSeconds = await drive(async (index) => {
      retries += (await invokeEndpoint(runtime, REAL_TIME, decision(index))).retries;
    });
    console.error(`real-time: ${totalRequests} decisions in ${round(realTimeSeconds)} s, ${retries} busy retries`);

    const inferenceIds: string[] = [];
    let failed = 0;
    const asyncSeconds = await drive(async (index) => {
      const queued = await invokeEndpointAsync({ s3, runtime }, LOCAL_ARTIFACT_BUCKET, ASYNC, decision(index));
      inferenceIds.push(queued.inferenceId);
      for (;;) {
        const outcome = await asyncOutcome(s3, queued);
        if (outcome.status === "failed") failed++;
        if (outcome.status !== "pending") return;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    });
    console.error(`asynchronous: ${totalRequests} decisions in ${round(asyncSeconds)} s, ${failed} failed`);

    const ids = new Set(inferenceIds);
    const ran = plane.asyncRequests.withStatus(ASYNC, "completed").filter((r) => ids.has(r.inferenceId));
    const waits = ran.map((r) => (r.startedAt ?? 0) - r.receivedAt);
    const services = ran.map((r) => (r.finishedAt ?? 0) - (r.startedAt ?? 0));
    const ratios = ran.map((_, i) => (waits[i] ?? 0) / Math.max(services[i] ?? 1, 1));
    const report = {
      date: new Date().toISOString(),
      host: os.hostname(),
      model: path.basename(modelFile()),
      requests: totalRequests,
      clients,
      parallel: Number(parallel),
      realTime: {
        seconds: round(realTimeSeconds),
        decisionsPerSecond: round(totalRequests / realTimeSeconds),
        busyRetries: retries,
      },
      asynchronous: {
        seconds: round(asyncSeconds),
        decisionsPerSecond: round(totalRequests / asyncSeconds),
        failed,
        queueWaitMs: { p50: round(quantile(waits, 0.5)), p95: round(quantile(waits, 0.95)) },
        serviceMs: { p50: round(quantile(services, 0.5)), p95: round(quantile(services, 0.95)) },
        waitOverService: { p50: round(quantile(ratios, 0.5)), p95: round(quantile(ratios, 0.95)) },
      },
    };
    const { realTime, asynchronous } = report;
    console.log(
      `\nbench:async on loopback: ${totalRequests} decisions, ${clients} clients, ADAPTER_PARALLEL = SEMIF_MAX_IN_FLIGHT = MaxConcurrentInvocationsPerInstance = ${parallel}, model ${report.model}, ADAPTER_THREADS=${values.threads}\n`,
    );
    console.log(
      "| path | decisions/s | seconds | busy retries | queue wait p50 / p95 ms | service p50 / p95 ms | wait/service p50 / p95 |",
    );
    console.log("|---|---:|---:|---:|---:|---:|---:|");
    console.log(
      `| real-time, 503 retried | ${realTime.decisionsPerSecond} | ${realTime.seconds} | ${realTime.busyRetries} | – | – | – |`,
    );
    console.log(
      `| asynchronous (S3 in, poll ${POLL_MS} ms) | ${asynchronous.decisionsPerSecond} | ${asynchronous.seconds} | – | ${asynchronous.queueWaitMs.p50} / ${asynchronous.queueWaitMs.p95} | ${asynchronous.serviceMs.p50} / ${asynchronous.serviceMs.p95} | ${asynchronous.waitOverService.p50} / ${asynchronous.waitOverService.p95} |`,
    );
    console.log(
      `\nasync/real-time throughput ratio: ${round(asynchronous.decisionsPerSecond / realTime.decisionsPerSecond)}`,
    );
    const out = path.join(benchOut, "async.json");
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(JSON.stringify({ ...report, load_average_1m: round(os.loadavg()[0] ?? 0) }));
  } finally {
    await plane.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { nearestRankQuantile } from "@decision-console/adapter/contract";
import { benchModelPath, benchOut } from "../adapter/bench/bench-files.ts";
import type { ModelKind } from "../adapter/test/support/llama-model.ts";
import { type AwsClientOptions, createAwsClients } from "../server/aws/clients.ts";
import { invokeEndpointBytes } from "../server/invoke/invoke.ts";
import type { ConsoleMessage } from "./gateway/console-process.ts";
import { ask, decisionBody, nextReply, startProcess } from "./gateway/processes.ts";

/**
 * npm run bench:gateway -- [--model path.gguf | --kind tiny] [--requests 200] [--warmup 20] [--threads 1]
 *
 * What the decision gateway adds to a decision, in local mode, on loopback: one endpoint, called each round once
 * directly (InvokeEndpoint with a SageMaker Runtime client) and once through the gateway (`POST /v1/systemone`
 * with a Bearer key, over HTTP to the console's proxy and route handler, which checks the key, spends its limits in
 * the console's SQLite store, calls InvokeEndpoint and records the call), in a random order so drift in the
 * machine's load falls on both alike. The same System One body both ways, a new ticket each round. Prints p50 and
 * p95 of each and the ratios gateway / direct, and ends with one JSON line on stdout (also bench/out/gateway.json).
 * The target is a p50 ratio of at most 1.05 on the tiny model.
 *
 * Three processes, as a user has them: this one is the application (it times both calls, as the application
 * sees them), bench/gateway/console-process.ts the console, bench/gateway/sagemaker-process.ts SageMaker (local
 * mode's control plane; the adapter is a process of its own in any case). With all three in one event loop, as
 * this bench had them before, the gateway's work after its answer (the tokens charged, the call recorded: the
 * console does it while the application reads the answer) ran before the application could read it, and the
 * console's, the emulator's and the client's turns queued behind one another; the added time then counted work
 * that no application waits for. The console is served by tests/support/route-server.ts (the console's proxy and
 * route handlers on a plain Node HTTP server), not `next start`.
 *
 * Each round also times the gateway's phases one by one, with the same key, body and answer, so the table says where
 * the added time goes: the HTTP hop (timed here: client, server, proxy, a handler that answers a stored decision at
 * once), and in the console process the key check, reading and validating the body, the statement that proves the
 * key and admits the call under its limits, building the answer, and what follows the answer (tokens charged, the
 * call recorded), which the gateway does not wait for.
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

const consoleDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-gateway-console-"));
const sageMaker = startProcess("sagemaker-process.ts", ["--model", gguf, "--threads", values.threads]);
let consoleProcess: ReturnType<typeof startProcess> | undefined;
try {
  const sageMakerSide = await nextReply<{ endpoint: string; runtime: AwsClientOptions }>(sageMaker);
  const { endpoint } = sageMakerSide;
  consoleProcess = startProcess("console-process.ts", [JSON.stringify(sageMakerSide)], {
    CONSOLE_DATA_DIR: consoleDir,
  });
  const console_ = await nextReply<{ url: string; secret: string; phases: string[] }>(consoleProcess);
  const tellConsole = <T>(message: ConsoleMessage) => ask<T>(consoleProcess!, message);
  const { runtime } = createAwsClients(sageMakerSide.runtime);

  const timed = async (work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    return performance.now() - started;
  };
  let answer: Uint8Array = new Uint8Array();
  const direct = (round: number) =>
    timed(async () => {
      answer = (await invokeEndpointBytes(runtime, endpoint, decisionBody(endpoint, round))).bytes;
    });
  const post = (path: string, round: number) =>
    timed(async () => {
      const response = await fetch(`${console_.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${console_.secret}` },
        body: JSON.stringify(decisionBody(endpoint, round)),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${path} answered ${response.status}: ${text}`);
    });
  const gateway = (round: number) => post("/v1/systemone", round);
  const hopPhase = "HTTP hop and proxy (a handler answering a stored decision)";
  const hop = (round: number) => post("/v1/decisions", round);
  const consolePhases = (round: number) => tellConsole<number[]>({ phases: round });

  for (let i = 0; i < warmup; i++) {
    await direct(-1 - i);
    await gateway(-1 - i);
    if (i === 0) await tellConsole({ answer: [...answer] });
    await hop(-1 - i);
    await consolePhases(-1 - i);
  }
  const latencies = { direct: [] as number[], gateway: [] as number[] };
  const phaseLatencies = Object.fromEntries([hopPhase, ...console_.phases].map((name) => [name, [] as number[]]));
  for (let round = 0; round < requests; round++) {
    const order = Math.random() < 0.5 ? (["direct", "gateway"] as const) : (["gateway", "direct"] as const);
    for (const arm of order) latencies[arm].push(await (arm === "direct" ? direct : gateway)(round));
    phaseLatencies[hopPhase]!.push(await hop(round));
    const timings = await consolePhases(round);
    for (const [i, name] of console_.phases.entries()) phaseLatencies[name]!.push(timings[i]!);
  }
  const recordedCalls = await tellConsole<number>({ close: true });

  const directSummary = summary(latencies.direct);
  const gatewaySummary = summary(latencies.gateway);
  const phaseSummaries = Object.fromEntries(
    Object.entries(phaseLatencies).map(([name, latencies]) => [name, summary(latencies)]),
  );
  const result = {
    bench: "gateway",
    model: path.basename(gguf),
    requests,
    recordedCalls,
    layout: "application, console and SageMaker (local mode) in three processes",
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
      `model ${result.model}, ${requests} rounds (direct and gateway once per round, random order), ${recordedCalls} gateway calls recorded; ${result.layout}`,
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
  consoleProcess?.kill();
  if (sageMaker.connected) await ask(sageMaker, "close").catch(() => sageMaker.kill());
  fs.rmSync(consoleDir, { recursive: true, force: true });
}

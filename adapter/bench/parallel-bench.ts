import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { readConfig } from "../src/engine/config.ts";
import { type RunningAdapter, startAdapter } from "../src/http/app.ts";
import type { ModelKind } from "../test/support/llama-model.ts";
import { benchModelPath } from "./bench-files.ts";
import { Progress } from "./progress.ts";
import { percentile, round } from "./section.ts";

/**
 * npm run bench:adapter-parallel -- [--kind bench-0.5b|tiny|...] [--model file.gguf] [--levels 2,4,8] [--requests 8]
 *   [--rounds 3] [--state-words 60] [--shared-sentences 19] [--threads 1]
 *
 * Two measures per ADAPTER_PARALLEL level n, against one sequence: decision throughput at client concurrency n
 * (SEMIF_MAX_IN_FLIGHT=n) over concurrency 1, and the latency of one shared request of 8 decisions on a new
 * ~900-token state (its suffixes spread over up to n lanes) over that on one sequence. One adapter per level is
 * started first, then the levels are measured in rounds, in a rotating order, so slow phases of a shared machine
 * fall on every level alike; ratios are of the medians over the rounds. Every prompt is distinct (no prefix reuse
 * between requests, no reading-cache hits). `--model`: default the generated bench/out/bench-0.5b.gguf, written on
 * first use; `--levels`: the ADAPTER_PARALLEL levels besides 1; `--requests`: decisions per level and round;
 * `--state-words`: words per state; `--shared-sentences`: the shared state's length (19 sentences: ~900 tokens; 0
 * skips the shared measure); `--threads`: the adapter's ADAPTER_THREADS.
 */
const { values } = parseArgs({
  options: {
    kind: { type: "string" },
    model: { type: "string" },
    levels: { type: "string", default: "2,4,8" },
    requests: { type: "string", default: "8" },
    rounds: { type: "string", default: "3" },
    "state-words": { type: "string", default: "60" },
    "shared-sentences": { type: "string", default: "19" },
    threads: { type: "string", default: "1" },
  },
});
const modelPath = benchModelPath(values.model, values.kind as ModelKind | undefined);
const levels = [1, ...values.levels.split(",").map(Number)];
const requests = Number(values.requests);
const rounds = Number(values.rounds);
const words = Number(values["state-words"]);
const sharedSentences = Number(values["shared-sentences"]);
const threads = values.threads;
const filler = "the customer asked support about the refund policy and the receipt before the trial ended".split(" ");

let served = 0;
function decisionBody() {
  const index = served++;
  const text = Array.from({ length: words }, (_, i) => filler[(i + index) % filler.length]).join(" ");
  return JSON.stringify({
    decision: {
      id: `r${index}`,
      state: `Ticket ${index}: ${text}.`,
      question: "Refund?",
      options: [
        { id: "yes", description: "Refund." },
        { id: "no", description: "Decline." },
      ],
    },
  });
}

const SHARED_SENTENCE =
  "The customer bought a laptop twelve days ago, has the receipt, reports that the screen flickers after the last " +
  "update, asked support twice, and now requests either a refund or a replacement before the trial ends. ";
const SHARED_QUESTIONS = [
  "Refund?",
  "Replace?",
  "Escalate?",
  "Urgent?",
  "Receipt valid?",
  "In policy?",
  "Fraud?",
  "Close?",
];

/** One `decisions` request of 8 decisions on a state no request has used: its wall time and the lanes it got. */
async function sharedRequest(adapter: RunningAdapter) {
  const state = `Case ${served++}. ${SHARED_SENTENCE.repeat(sharedSentences)}`;
  const decisions = SHARED_QUESTIONS.map((question, index) => ({
    id: `q${index}`,
    state,
    question,
    options: [
      { id: "yes", description: "Yes." },
      { id: "no", description: "No." },
    ],
  }));
  const started = performance.now();
  const response = await fetch(`${adapter.url}/invocations`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ decisions }),
  });
  const body = (await response.json()) as { timing?: { lanes: number } };
  if (response.status !== 200) throw new Error(`shared request: ${response.status} ${JSON.stringify(body)}`);
  return { ms: performance.now() - started, lanes: body.timing!.lanes };
}

async function measure(adapter: RunningAdapter, concurrency: number) {
  const latencies: number[] = [];
  let sent = 0;
  let busy = 0;
  const started = performance.now();
  const client = async () => {
    while (sent < requests) {
      sent++;
      const body = decisionBody();
      const at = performance.now();
      const response = await fetch(`${adapter.url}/invocations`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      await response.json();
      if (response.status === 503) busy++;
      else if (response.status !== 200) throw new Error(`status ${response.status}`);
      latencies.push(performance.now() - at);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  return { throughput: requests / ((performance.now() - started) / 1000), p50: percentile(latencies, 0.5), busy };
}

const loadBefore = os.loadavg();
const adapters = new Map<number, RunningAdapter>();
try {
  for (const level of levels) {
    const config = readConfig({
      SEMIF_MAX_TOKENS: "1024",
      ...process.env,
      ADAPTER_MODEL_PATH: modelPath,
      ADAPTER_THREADS: threads,
      ADAPTER_PARALLEL: String(level),
      SEMIF_MAX_IN_FLIGHT: String(level),
    });
    const adapter = await startAdapter(config, { host: "127.0.0.1", port: 0, log: () => undefined });
    await adapter.ready;
    adapters.set(level, adapter);
  }
  const results = new Map(levels.map((level) => [level, [] as Awaited<ReturnType<typeof measure>>[]]));
  const shared = new Map(levels.map((level) => [level, [] as Awaited<ReturnType<typeof sharedRequest>>[]]));
  const progress = new Progress("bench:adapter-parallel", rounds * levels.length, 0);
  for (let roundIndex = 0; roundIndex < rounds; roundIndex++) {
    for (let slot = 0; slot < levels.length; slot++) {
      const level = levels[(slot + roundIndex) % levels.length]!;
      results.get(level)!.push(await measure(adapters.get(level)!, level));
      if (sharedSentences > 0) shared.get(level)!.push(await sharedRequest(adapters.get(level)!));
      progress.step();
    }
  }
  const medianThroughput = (level: number) =>
    percentile(
      results.get(level)!.map((r) => r.throughput),
      0.5,
    );
  const serial = medianThroughput(1);
  const medianShared = (level: number) =>
    percentile(
      shared.get(level)!.map((r) => r.ms),
      0.5,
    );
  const summary: Record<string, number> = {};
  const rows = levels.map((level) => {
    const speedup = medianThroughput(level) / serial;
    if (level > 1) summary[`throughput_speedup_c${level}`] = round(speedup, 3);
    const sharedSpeedup = sharedSentences > 0 ? medianShared(1) / medianShared(level) : Number.NaN;
    if (level > 1 && sharedSentences > 0) summary[`shared8_speedup_p${level}`] = round(sharedSpeedup, 3);
    return {
      parallel: level,
      concurrency: level,
      "decisions/s (median)": round(medianThroughput(level), 3),
      "per round": results
        .get(level)!
        .map((r) => round(r.throughput, 2))
        .join(" "),
      "p50 ms": round(
        percentile(
          results.get(level)!.map((r) => r.p50),
          0.5,
        ),
      ),
      busy: results.get(level)!.reduce((sum, r) => sum + r.busy, 0),
      speedup: round(speedup, 3),
      "8 shared ms (median)": sharedSentences > 0 ? round(medianShared(level)) : "-",
      "8 shared, per round": shared
        .get(level)!
        .map((r) => `${Math.round(r.ms)} (${r.lanes} lanes)`)
        .join(" "),
      "shared speedup": round(sharedSpeedup, 3),
    };
  });
  console.table(rows);
  console.log(
    JSON.stringify({
      ...summary,
      requests,
      rounds,
      state_words: words,
      threads: Number(threads),
      model: path.basename(modelPath),
      load_average_before: loadBefore.map((load) => round(load, 1)),
      load_average_after: os.loadavg().map((load) => round(load, 1)),
    }),
  );
} finally {
  for (const adapter of adapters.values()) await adapter.close();
}

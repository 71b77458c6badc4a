import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { LlamaContextSequence, Token } from "node-llama-cpp";
import { percentile, round } from "../../adapter/bench/section.ts";
import type { Decision } from "../../adapter/src/contract/decision.ts";
import { readConfig } from "../../adapter/src/engine/config.ts";
import type { Engine } from "../../adapter/src/engine/engine.ts";
import { startAdapter } from "../../adapter/src/http/app.ts";
import { type ModelSpec, modelSpec, writeModel } from "../../adapter/test/support/llama-model.ts";

/**
 * The GPU device check of DESIGN §10 / issue 9, in one run: the adapter on CUDA with a synthetic 4B-class model,
 * end-to-end decision latency over HTTP against the raw node-llama-cpp evaluation of the same tokens at each
 * prompt length, then JevBench-shaped latency over the 231 decisions. Prints a table and one JSON line, and
 * writes <--out>/gpu-bench.json when --out is given. See bench/gpu/README.md for how it reaches the GPU machine.
 *
 * Flags: --shape (4b | medium; medium is the CPU smoke test), --model (an existing GGUF), --model-dir (where a
 * generated one is kept), --lengths (default 128,256,512,1024,3000), --repeats (default 12), --jevbench (path of
 * jevbench.jsonl), --jevbench-limit, --out. The adapter's own variables configure it (ADAPTER_GPU, ADAPTER_THREADS, ...).
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const { values } = parseArgs({
  options: {
    shape: { type: "string", default: "4b" },
    model: { type: "string" },
    "model-dir": { type: "string", default: path.join(repoRoot, "bench", "out") },
    lengths: { type: "string", default: "128,256,512,1024,3000" },
    repeats: { type: "string", default: "12" },
    jevbench: { type: "string" },
    "jevbench-limit": { type: "string" },
    out: { type: "string" },
  },
});

type JevBenchRow = { id: string; state: unknown; question: string; options: Decision["options"] };

/** Qwen3-4B's dense shape (4.06B parameters with its 151,936-token vocabulary), random Q8_0 weights. */
function fourBillionSpec(words: string | undefined): ModelSpec {
  const base = modelSpec("bench-0.5b", { extraText: words, weightType: "Q8_0" });
  return {
    ...base,
    name: "synthetic-qwen3-4b-shape",
    shape: { embedding: 2560, layers: 36, heads: 32, kvHeads: 8, feedForward: 9728, contextLength: 32768 },
    tiedOutput: false,
  };
}

function jevbenchRows(): JevBenchRow[] {
  // The vendored copy under server/evaluate/samples travels with the working tree to the GPU machine.
  const candidates = [
    values.jevbench,
    path.resolve(repoRoot, "../shared/bench/jevbench.jsonl"),
    path.join(repoRoot, "server/evaluate/samples/jevbench.jsonl"),
  ].filter((file): file is string => file !== undefined);
  const file = candidates.find((candidate) => existsSync(candidate));
  if (!file) throw new Error(`JevBench not found (looked at ${candidates.join(", ")}); pass --jevbench`);
  const rows = readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as JevBenchRow);
  return rows.slice(0, Number(values["jevbench-limit"] ?? rows.length));
}

function benchModel(rows: JevBenchRow[]): string {
  if (values.model) return path.resolve(values.model);
  const shape = values.shape;
  const words = rows.map((row) => `${JSON.stringify(row.state)} ${row.question}`).join("\n");
  const spec = shape === "4b" ? fourBillionSpec(words) : modelSpec("medium", { extraText: words });
  const dir = values["model-dir"];
  const file = path.join(dir, `gpu-bench-${shape}.gguf`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    const started = performance.now();
    writeModel(spec, file);
    log({ event: "model_written", file, seconds: round((performance.now() - started) / 1000) });
  }
  return file;
}

function log(line: Record<string, unknown>) {
  process.stderr.write(`${JSON.stringify(line)}\n`);
}

/** One raw evaluation of the prompt's tokens with the option letters' logits read at the last position. */
async function rawPrefill(sequence: LlamaContextSequence, tokens: Token[], letters: Token[]) {
  await sequence.clearHistory();
  const last = tokens.length - 1;
  await sequence.controlledEvaluate(
    tokens.map((token, index) =>
      index === last
        ? [token, { generateNext: { logits: { filter: { tokens: letters, includeTop: 1 } }, totalLogitWeight: true } }]
        : token,
    ),
  );
}

function promptTokens(engine: Engine, decision: Decision) {
  const prompt = engine.prompts.build(decision);
  return { all: prompt.tokens, letters: prompt.letterTokens };
}

/** A decision whose rendered prompt is as close to `target` tokens as whole words allow (binary search). */
function decisionOfLength(engine: Engine, target: number, words: string[], salt: number): Decision {
  const make = (count: number): Decision => ({
    id: `len-${target}-${salt}`,
    state: `Case ${salt}. ${Array.from({ length: count }, (_, i) => words[(i + salt) % words.length]).join(" ")}`,
    question: "Escalate?",
    options: [
      { id: "yes", description: "Yes" },
      { id: "no", description: "No" },
    ],
  });
  let low = 0;
  let high = target * 2;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (promptTokens(engine, make(mid)).all.length < target) low = mid + 1;
    else high = mid;
  }
  return make(low);
}

async function invoke(url: string, body: unknown): Promise<{ status: number; ms: number; text: string }> {
  const started = performance.now();
  const response = await fetch(`${url}/invocations`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, ms: performance.now() - started, text };
}

const rows = jevbenchRows();
const modelPath = benchModel(rows);
const config = readConfig({
  SEMIF_MAX_TOKENS: "4096",
  ...process.env,
  ADAPTER_MODEL_PATH: modelPath,
  SAGEMAKER_BIND_TO_PORT: "0",
});
const lengths = values.lengths.split(",").map(Number);
const repeats = Number(values.repeats);
const loadStarted = performance.now();
const adapter = await startAdapter(config, { host: "127.0.0.1", port: 0, log: () => undefined });
try {
  const engine = await adapter.ready;
  const { metadata } = engine;
  log({ event: "adapter_ready", seconds: round((performance.now() - loadStarted) / 1000), model: metadata });
  const coldStart = async () => {
    await engine.pool.clearIdle();
    engine.decisions.cache?.clear();
  };
  const words = rows.flatMap((row) => JSON.stringify(row.state).split(/\s+/)).filter(Boolean);

  const table: Array<Record<string, number | string>> = [];
  for (const target of lengths) {
    const http: number[] = [];
    const raw: number[] = [];
    let tokens = 0;
    // Two unmeasured rounds warm the CUDA kernels and graphs for this batch size.
    for (let index = -2; index < repeats; index++) {
      const decision = decisionOfLength(engine, target, words, index + 3);
      const prompt = promptTokens(engine, decision);
      tokens = prompt.all.length;
      const measureHttp = async () => {
        await coldStart();
        const answer = await invoke(adapter.url, { decision });
        if (answer.status !== 200)
          throw new Error(`decision of ${tokens} tokens failed: ${answer.status} ${answer.text}`);
        if (index >= 0) http.push(answer.ms);
      };
      const measureRaw = async () => {
        const started = performance.now();
        await engine.pool.lease([], (lease) => rawPrefill(lease.sequence, prompt.all, prompt.letters));
        if (index >= 0) raw.push(performance.now() - started);
      };
      if (index % 2 === 0) {
        await measureHttp();
        await measureRaw();
      } else {
        await measureRaw();
        await measureHttp();
      }
    }
    const row = {
      prompt_tokens: tokens,
      adapter_p50_ms: round(percentile(http, 0.5)),
      adapter_p95_ms: round(percentile(http, 0.95)),
      raw_p50_ms: round(percentile(raw, 0.5)),
      raw_p95_ms: round(percentile(raw, 0.95)),
      ratio_p50: round(percentile(http, 0.5) / percentile(raw, 0.5), 3),
      raw_tokens_per_s: Math.round(tokens / (percentile(raw, 0.5) / 1000)),
    };
    table.push(row);
    log({ event: "length_done", ...row });
  }

  const jevbench: number[] = [];
  let failures = 0;
  for (const row of rows) {
    const answer = await invoke(adapter.url, {
      decision: { id: row.id, state: row.state, question: row.question, options: row.options },
    });
    if (answer.status === 200) jevbench.push(answer.ms);
    else failures++;
  }

  console.table(table);
  const summary = {
    measured_at: new Date().toISOString(),
    lengths: table,
    max_ratio_p50: round(Math.max(...table.map((row) => Number(row.ratio_p50))), 3),
    jevbench_requests: rows.length,
    jevbench_failures: failures,
    jevbench_p50_ms: round(percentile(jevbench, 0.5)),
    jevbench_p95_ms: round(percentile(jevbench, 0.95)),
    model: {
      file: path.basename(metadata.file),
      name: metadata.name,
      bytes: metadata.bytes,
      backend: metadata.backend,
      gpu_layers: metadata.gpu_layers,
      total_layers: metadata.total_layers,
      threads: metadata.threads,
      context_size: metadata.context_size,
    },
  };
  console.log(JSON.stringify(summary));
  if (values.out) writeFileSync(path.join(values.out, "gpu-bench.json"), `${JSON.stringify(summary, null, 2)}\n`);
} finally {
  await adapter.close();
}

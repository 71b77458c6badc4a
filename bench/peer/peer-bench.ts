import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { benchModelPath, benchOut, type JevBenchRow, jevbenchRows, repoRoot } from "../../adapter/bench/bench-files.ts";
import { Progress } from "../../adapter/bench/progress.ts";
import type { Decision } from "../../adapter/src/contract/decision.ts";
import { readConfig } from "../../adapter/src/engine/config.ts";
import type { Engine } from "../../adapter/src/engine/engine.ts";
import { startAdapter } from "../../adapter/src/http/app.ts";
import type { ModelKind } from "../../adapter/test/support/llama-model.ts";
import { type LlamaServer, startLlamaServer } from "./llama-server.ts";
import { ensurePeerBinaries } from "./llama-server-build.ts";
import { sharedVerdict } from "./shared-verdict.ts";

/**
 * npm run bench:peer -- [--quick] [--threads 1] [--repeats 3] [--lengths 190,500,1500] [--states 500,1500]
 *   [--batches 2,4,8] [--checks 8] [--kind bench-0.5b] [--model file.gguf] [--jobs 2] [--gpu --llama-server path]
 *
 * The adapter against llama.cpp's own llama-server, built from the llama.cpp source node-llama-cpp bundles
 * (`llama-server-build.ts`, cached in bench/out/), both serving the same GGUF (`--model`, default the generated
 * bench/out/bench-0.5b.gguf) with the same thread count, requests alternated so both see the same machine load.
 * llama-server gets the adapter's exact token ids (token-array prompts to `/completion`, one token generated);
 * every prompt is new to both, except where a cell reuses one on purpose. Cells, each `--repeats` times, ratio of
 * medians (adapter / llama-server; below 1: the adapter is faster):
 * - one decision of about each `--lengths` prompt tokens: against llama-server without and with `cache_prompt`;
 * - `--batches` decisions on one state of about each `--states` tokens: the adapter's `decisions` request against
 *   as many sequential `cache_prompt` requests; then one more decision on that state (warm) and an exact repeat.
 * `--quick` (under 10 minutes on 2 cores at 1 thread) keeps every shared cell with 3 repeats (a median of 2 is
 * their mean, which one load spike on a shared machine decides), one single decision length (190) and 4 correctness
 * decisions; flags given beside it win. The verdict line holds the shared
 * cells to the CPU target (1.00), or with `--gpu` to the GPU target (0.5), and the warm decision after each to
 * parity (1.00) on both; the table also prints each repeat's own ratio, whose spread is the cell's noise, and splits
 * each side's time into its forward passes (the adapter's `timing`, llama-server's `timings`) and the rest around
 * them, beside the tokens each evaluated: a gap in the passes is the engine's, one around them the server's. With
 * `--gpu` the adapter runs on CUDA and
 * llama-server with every layer offloaded, which needs a CUDA build of it named by `--llama-server` (the one built
 * here is CPU only).
 * Correctness: for `--checks` decisions on identical token ids, llama-server's probabilities of the answer letters
 * (`n_probs` after banning every other token by logit bias, so they are the softmax over the letters' logits)
 * against the adapter's (max |dp|), once with the adapter's forward passes (the state alone, then the rest) and once
 * with llama-server's single pass; and llama-server's own `/tokenize` of the rendered prompt text against the
 * adapter's ids. Prints a table and one JSON line; writes bench/out/peer.json. Not part of `npm test`.
 */
const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    threads: { type: "string", default: "1" },
    repeats: { type: "string" },
    lengths: { type: "string" },
    states: { type: "string", default: "500,1500" },
    batches: { type: "string", default: "2,4,8" },
    checks: { type: "string" },
    kind: { type: "string" },
    model: { type: "string" },
    jobs: { type: "string", default: "2" },
    gpu: { type: "boolean", default: false },
    "llama-server": { type: "string" },
  },
});
const quick = values.quick;
const list = (value: string) => value.split(",").filter(Boolean).map(Number);
const threads = Number(values.threads);
const repeats = Number(values.repeats ?? "3");
const lengths = list(values.lengths ?? (quick ? "190" : "190,500,1500"));
const checks = Number(values.checks ?? (quick ? "4" : "8"));
const states = list(values.states);
const batches = list(values.batches);

type Pair = Pick<Decision, "question" | "options">;
type Row = {
  cell: string;
  adapter_ms: number;
  llama_server_ms: number;
  ratio: number;
  n: number;
  tokens: number;
  adapter_samples: number[];
  llama_server_samples: number[];
  /** Each repeat's adapter / llama-server, measured back to back: their spread is the cell's noise. */
  paired_ratios: number[];
  /** Medians of each side's own time in its forward passes (the adapter's timing, llama-server's `timings`). */
  adapter_passes_ms: number;
  llama_server_passes_ms: number;
  /** Medians of the time around those passes: HTTP, JSON, prompt building, scheduling. */
  adapter_around_ms: number;
  llama_server_around_ms: number;
  /** Medians of the tokens each side put through forward passes (the rest each kept from before). */
  adapter_evaluated: number;
  llama_server_evaluated: number;
};

/** One request's (or one sequence of requests') wall time, the part of it in forward passes, and tokens evaluated. */
type Sample = { ms: number; passesMs: number; evaluated: number };
const summed = (samples: readonly Sample[]): Sample => ({
  ms: samples.reduce((sum, sample) => sum + sample.ms, 0),
  passesMs: samples.reduce((sum, sample) => sum + sample.passesMs, 0),
  evaluated: samples.reduce((sum, sample) => sum + sample.evaluated, 0),
});

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Distinct question+options pairs (JevBench repeats many), handed out round-robin. */
function pairSource(rows: readonly JevBenchRow[]) {
  const seen = new Map<string, Pair>();
  for (const row of rows) seen.set(JSON.stringify([row.question, row.options]), row);
  const pairs = [...seen.values()].map(({ question, options }) => ({ question, options }));
  let next = 0;
  return {
    count: pairs.length,
    take: (count: number): Pair[] => {
      if (count > pairs.length) throw new Error(`only ${pairs.length} distinct question+options pairs`);
      return Array.from({ length: count }, () => pairs[next++ % pairs.length]!);
    },
  };
}

async function main() {
  if (values.gpu && !values["llama-server"]) {
    throw new Error("--gpu needs --llama-server <a CUDA build of llama-server>: the one built here is CPU only");
  }
  const built = values["llama-server"] ? null : await ensurePeerBinaries(repoRoot, Number(values.jobs));
  const binaries = built ?? { server: path.resolve(values["llama-server"]!), commit: "given by --llama-server" };
  const modelPath = benchModelPath(values.model, values.kind as ModelKind | undefined);
  const config = readConfig({
    SEMIF_MAX_TOKENS: "8192",
    SEMIF_MAX_REQUEST_TOKENS: "16384",
    ...process.env,
    ADAPTER_MODEL_PATH: modelPath,
    ADAPTER_THREADS: String(threads),
    ...(values.gpu ? { ADAPTER_GPU: "cuda" } : {}),
    SAGEMAKER_BIND_TO_PORT: "0",
  });
  const adapter = await startAdapter(config, { host: "127.0.0.1", port: 0, log: () => undefined });
  let server: LlamaServer | null = null;
  try {
    const engine = await adapter.ready;
    server = await startLlamaServer(binaries.server, {
      model: modelPath,
      threads,
      contextSize: 16384,
      gpuLayers: values.gpu ? 999 : 0,
      log: (line) => process.stderr.write(`${line}\n`),
    });
    const result = await compare(engine, adapter.url, server);
    const verdict = sharedVerdict(result.rows, values.gpu ? "gpu" : "cpu");
    const report = {
      date: new Date().toISOString(),
      host: os.hostname(),
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model ?? "unknown",
      load_average_1m: result.loads,
      llama_cpp: binaries.commit,
      model: path.basename(modelPath),
      threads,
      quick,
      gpu: values.gpu,
      adapter_parallel: config.parallel,
      branch_schedule: config.branchSchedule,
      llama_server_slots: server.props.total_slots ?? null,
      repeats,
      rows: result.rows,
      ratios: Object.fromEntries(result.rows.map((row) => [row.cell, row.ratio])),
      correctness: result.correctness,
      verdict,
    };
    console.log(`\nadapter / llama-server, ${path.basename(modelPath)}, ${threads} thread(s), ${repeats} repeats\n`);
    console.log(
      "| cell | adapter ms | llama-server ms | adapter / llama-server | each repeat's ratio | in forward passes (a / s) | around them (a / s) | tokens evaluated (a / s) | n | tokens |",
    );
    console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (const row of result.rows) {
      console.log(
        `| ${row.cell} | ${Math.round(row.adapter_ms)} | ${Math.round(row.llama_server_ms)} | ${row.ratio} | ${row.paired_ratios.join(", ")} | ${Math.round(row.adapter_passes_ms)} / ${Math.round(row.llama_server_passes_ms)} | ${row.adapter_around_ms} / ${row.llama_server_around_ms} | ${row.adapter_evaluated} / ${row.llama_server_evaluated} | ${row.n} | ${row.tokens} |`,
      );
    }
    console.log(`\n${verdict.line}`);
    const { correctness } = result;
    console.log(
      `\ncorrectness over ${correctness.decisions} decisions on identical token ids: max |dp| ` +
        `${correctness.max_abs_dp_same_passes.toExponential(2)} with the same passes (state, then the rest), ` +
        `${correctness.max_abs_dp_one_pass.toExponential(2)} against llama-server's one pass; llama-server's ` +
        `tokenization equals the adapter's ids for ${correctness.token_ids_equal}/${correctness.decisions} prompts`,
    );
    const { mkdirSync, writeFileSync } = await import("node:fs");
    mkdirSync(benchOut, { recursive: true });
    writeFileSync(path.join(benchOut, "peer.json"), `${JSON.stringify(report, null, 2)}\n`);
    console.log(JSON.stringify({ ...report, rows: undefined }));
  } finally {
    await server?.stop();
    await adapter.close();
  }
}

async function compare(engine: Engine, url: string, server: LlamaServer) {
  const rows = jevbenchRows();
  const pairs = pairSource(rows);
  const loads: number[] = [];
  const invoke = async (body: unknown) => {
    const started = performance.now();
    const response = await fetch(`${url}/invocations`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const parsed = (await response.json()) as {
      result?: { probabilities: number[] };
      timing?: { prefill_seconds: number; suffix_forward_seconds: number; evaluated_tokens: number };
      error?: string;
    };
    if (response.status !== 200) throw new Error(`adapter: ${response.status} ${JSON.stringify(parsed)}`);
    const timing = parsed.timing;
    const sample: Sample = {
      ms: performance.now() - started,
      passesMs: timing ? (timing.prefill_seconds + timing.suffix_forward_seconds) * 1000 : Number.NaN,
      evaluated: timing?.evaluated_tokens ?? Number.NaN,
    };
    return { ...sample, body: parsed };
  };
  const serverSample = (tokens: readonly number[], cachePrompt: boolean): Promise<Sample> =>
    server.complete(tokens, { cachePrompt });
  const tokensOf = (decision: Decision) => engine.prompts.build(decision).tokens;
  // Every row's state with its own question, by prompt length: the pool states are drawn from.
  const byLength = rows
    .map((row) => ({ row, length: tokensOf({ ...row, id: row.id } as Decision).length }))
    .sort((a, b) => a.length - b.length);
  const used = new Set<string>();
  const nearest = (target: number) => {
    const candidates = byLength.filter((entry) => !used.has(entry.row.id));
    const best = candidates.reduce((a, b) => (Math.abs(b.length - target) < Math.abs(a.length - target) ? b : a));
    used.add(best.row.id);
    return best;
  };
  const decision = (state: unknown, pair: Pair, id: string): Decision => ({ id, state, ...pair }) as Decision;
  const table: Row[] = [];
  const addRow = (cell: string, adapter: Sample[], llamaServer: Sample[], tokens: number[]) => {
    const adapterMs = adapter.map((sample) => sample.ms);
    const serverMs = llamaServer.map((sample) => sample.ms);
    const [a, s] = [median(adapterMs), median(serverMs)];
    const medianOf = (samples: Sample[], value: (sample: Sample) => number) => round(median(samples.map(value)), 1);
    table.push({
      cell,
      adapter_ms: round(a, 1),
      llama_server_ms: round(s, 1),
      ratio: round(a / s),
      n: adapterMs.length,
      tokens: Math.round(median(tokens)),
      adapter_samples: adapterMs.map((ms) => Math.round(ms)),
      llama_server_samples: serverMs.map((ms) => Math.round(ms)),
      paired_ratios: adapterMs.map((ms, index) => round(ms / serverMs[index]!)),
      adapter_passes_ms: medianOf(adapter, (sample) => sample.passesMs),
      llama_server_passes_ms: medianOf(llamaServer, (sample) => sample.passesMs),
      adapter_around_ms: medianOf(adapter, (sample) => sample.ms - sample.passesMs),
      llama_server_around_ms: medianOf(llamaServer, (sample) => sample.ms - sample.passesMs),
      adapter_evaluated: medianOf(adapter, (sample) => sample.evaluated),
      llama_server_evaluated: medianOf(llamaServer, (sample) => sample.evaluated),
    });
    loads.push(round(os.loadavg()[0]!, 1));
  };
  const total = repeats * (lengths.length + states.length * batches.length);
  const progress = new Progress("bench:peer cells", total);

  for (const target of lengths) {
    const times = { adapter: [] as Sample[], cold: [] as Sample[], cached: [] as Sample[], tokens: [] as number[] };
    for (let repeat = 0; repeat < repeats; repeat++) {
      const { row, length } = nearest(target);
      const one = decision(row.state, row, `single-${row.id}`);
      const tokens = tokensOf(one);
      const ours = async () => times.adapter.push(await invoke({ decision: one }));
      // The cached request first: an uncached one also leaves its prompt in the slot, which the cached request
      // would then find whole. The adapter goes first or last in turn.
      const theirs = async () => {
        times.cached.push(await serverSample(tokens, true));
        times.cold.push(await serverSample(tokens, false));
      };
      for (const side of repeat % 2 === 0 ? [ours, theirs] : [theirs, ours]) await side();
      times.tokens.push(length);
      progress.step();
    }
    addRow(
      `one decision, ~${target} tokens, llama-server without prompt cache`,
      times.adapter,
      times.cold,
      times.tokens,
    );
    addRow(
      `one decision, ~${target} tokens, llama-server with cache_prompt`,
      times.adapter,
      times.cached,
      times.tokens,
    );
  }

  for (const target of states) {
    for (const count of batches) {
      const times = {
        shared: [] as Sample[],
        sequential: [] as Sample[],
        warmA: [] as Sample[],
        warmS: [] as Sample[],
      };
      const repeatTimes = { adapter: [] as Sample[], server: [] as Sample[] };
      const tokens: number[] = [];
      for (let repeat = 0; repeat < repeats; repeat++) {
        const { row, length } = nearest(target);
        const chosen = pairs.take(count + 1);
        const decisions = chosen.slice(0, count).map((pair, index) => decision(row.state, pair, `d${index}`));
        const warm = decision(row.state, chosen[count]!, "warm");
        const adapterFirst = repeat % 2 === 0;
        const sides = [
          async () => times.shared.push(await invoke({ decisions })),
          async () => {
            const each: Sample[] = [];
            for (const item of decisions) each.push(await serverSample(tokensOf(item), true));
            times.sequential.push(summed(each));
          },
        ];
        for (const side of adapterFirst ? sides : [...sides].reverse()) await side();
        const warmTokens = tokensOf(warm);
        const warmSides = [
          async () => times.warmA.push(await invoke({ decision: warm })),
          async () => times.warmS.push(await serverSample(warmTokens, true)),
        ];
        for (const side of adapterFirst ? warmSides : [...warmSides].reverse()) await side();
        const repeatSides = [
          async () => repeatTimes.adapter.push(await invoke({ decision: warm })),
          async () => repeatTimes.server.push(await serverSample(warmTokens, true)),
        ];
        for (const side of adapterFirst ? repeatSides : [...repeatSides].reverse()) await side();
        tokens.push(length);
        progress.step();
      }
      addRow(
        `${count} decisions on one ~${target}-token state: shared request vs ${count} sequential cached`,
        times.shared,
        times.sequential,
        tokens,
      );
      addRow(
        `one more decision on that ~${target}-token state (warm), after ${count}`,
        times.warmA,
        times.warmS,
        tokens,
      );
      addRow(
        `exact repeat of that request (~${target}, after ${count})`,
        repeatTimes.adapter,
        repeatTimes.server,
        tokens,
      );
    }
  }

  // Correctness on 8 short decisions with identical token ids. The same forward passes on both sides (the state in
  // a pass of its own from an empty cache, then the rest): the letters' probabilities agree to float rounding. And
  // against llama-server evaluating the prompt in one pass: batch boundaries change float order, which the random
  // weights of a synthetic model amplify (a real model's answers move far less).
  const vocabulary = (engine.loaded.model.fileInfo.metadata.tokenizer.ggml as { tokens: readonly string[] }).tokens
    .length;
  let samePasses = 0;
  let onePass = 0;
  let sameIds = 0;
  const checked = checks;
  const check = new Progress("bench:peer correctness", checked);
  for (let index = 0; index < checked; index++) {
    const { row } = nearest(lengths[0] ?? 190);
    const item = decision(row.state, pairs.take(1)[0]!, `check-${index}`);
    const prompt = engine.prompts.build(item);
    await engine.pool.clearIdle();
    const ours = (await invoke({ decision: item })).body.result!.probabilities;
    const only = { only: prompt.letterTokens, vocabulary };
    const whole = await server.complete(prompt.tokens, { cachePrompt: false, ...only });
    await server.complete(prompt.tokens.slice(0, prompt.prefixLength), { cachePrompt: false, generate: false });
    const split = await server.complete(prompt.tokens, { cachePrompt: true, ...only });
    for (const [option, token] of prompt.letterTokens.entries()) {
      onePass = Math.max(onePass, Math.abs((whole.probabilities.get(token) ?? Number.NaN) - ours[option]!));
      samePasses = Math.max(samePasses, Math.abs((split.probabilities.get(token) ?? Number.NaN) - ours[option]!));
    }
    const tokenized = await server.tokenize(prompt.text);
    if (tokenized.length === prompt.tokens.length && tokenized.every((token, i) => token === prompt.tokens[i])) {
      sameIds++;
    }
    check.step();
  }
  return {
    rows: table,
    loads,
    correctness: {
      decisions: checked,
      max_abs_dp_same_passes: samePasses,
      max_abs_dp_one_pass: onePass,
      token_ids_equal: sameIds,
    },
  };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

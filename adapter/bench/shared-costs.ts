import os from "node:os";
import { parseArgs } from "node:util";
import type { ControlledEvaluateInputItem, LlamaContextSequence, Token } from "node-llama-cpp";
import { checkDecisions, type Decision, parseDecisionEnvelope } from "../src/contract/decision.ts";
import { type Branch, scoreBranches } from "../src/engine/branch-scoring.ts";
import { sharedPrefix } from "../src/engine/canonical-prompt.ts";
import type { Engine } from "../src/engine/engine.ts";
import { findReservedToken } from "../src/engine/reserved-tokens.ts";
import { median, timed, withBenchEngine } from "./bench-engine.ts";
import { jevbenchRows } from "./bench-files.ts";
import { Progress } from "./progress.ts";

/**
 * npm run bench:shared-costs -- [--threads 1] [--states 500,1500] [--decisions 8] [--repeats 15] [--kind K]
 *   [--model file.gguf]
 *
 * The fixed costs of a shared request beside its forward passes, each measured alone on the engine (no HTTP), for
 * `--decisions` JevBench questions on a JevBench state of about each `--states` tokens (medians of `--repeats`):
 * - `build_ms`: one decision's prompt (render, whole-text tokenization, the state's stable split, labels);
 * - `raw_tokenize_ms`: one tokenization of that prompt's text, for scale;
 * - `cache_key_ms`: one branch's reading-cache key (sha256 of its tokens);
 * - `lease_ms`: taking and giving back a sequence of the pool (8 sequences compared against the prompt);
 * - `trim_ms`: erasing one branch's suffix from the sequence (llama.cpp `seq_rm`);
 * - per branch, the suffix's last token evaluated alone with its logits read three ways, alternated: `read_top_ms`
 *   (the letters' logits plus the full-vocabulary top token by `includeTop: 1`), `read_selected_ms` (the letters
 *   plus the greedy token by `includeSelected`) and `no_read_ms` (no logits): the differences are the reading's cost;
 * - `pass_fixed_ms`: what a forward pass costs beyond its tokens (1-token pass minus the per-token slope of a
 *   32-token pass);
 * - `serial_ms` and `raw_ms`: all branches by `scoreBranches` on a sequence holding the prefix, against the same
 *   passes made directly as sequential cached requests would (keep the common start of the previous prompt, erase
 *   the rest, `controlledEvaluate` the remainder with the letters read by `includeSelected`), alternated: the
 *   difference is the serial schedule's bookkeeping per request;
 * - `json_ms`: parsing the request body and writing the response body of the shared request;
 * - `validate_ms` and `reserved_ms`: the request's schema checks, and its search for reserved token texts.
 * Not part of `npm test`.
 */
const { values } = parseArgs({
  options: {
    threads: { type: "string", default: "1" },
    states: { type: "string", default: "500,1500" },
    decisions: { type: "string", default: "8" },
    repeats: { type: "string", default: "15" },
    kind: { type: "string" },
    model: { type: "string" },
  },
});
const list = (value: string) => value.split(",").filter(Boolean).map(Number);
const round = (value: number) => Math.round(value * 100) / 100;

type ReadMode = "top" | "selected" | "none";

/** The last token of `tokens` evaluated alone, its next-token logits read as the adapter does (`top`) or otherwise. */
function lastToken(tokens: readonly Token[], letters: readonly Token[], mode: ReadMode): ControlledEvaluateInputItem[] {
  const token = tokens[tokens.length - 1]!;
  if (mode === "none") return [token];
  const filter = mode === "top" ? { tokens: letters, includeTop: 1 } : { tokens: letters, includeSelected: true };
  return [[token, { generateNext: { logits: { filter }, totalLogitWeight: true, token: mode === "selected" } }]];
}

async function measure(engine: Engine, model: string) {
  const rows = jevbenchRows();
  const pairs = [...new Map(rows.map((row) => [JSON.stringify([row.question, row.options]), row] as const)).values()];
  const byLength = rows.map((row) => ({ row, length: engine.prompts.build({ ...row } as Decision).tokens.length }));
  const count = Number(values.decisions);
  const repeats = Number(values.repeats);
  const states = list(values.states);
  const progress = new Progress("bench:shared-costs states", states.length);
  const table: Array<Record<string, number | string>> = [];
  for (const target of states) {
    const { row, length } = byLength.reduce((a, b) =>
      Math.abs(b.length - target) < Math.abs(a.length - target) ? b : a,
    );
    const decisions = pairs
      .slice(0, count)
      .map(
        (pair, index) =>
          ({ id: `d${index}`, state: row.state, question: pair.question, options: pair.options }) as Decision,
      );
    const prompts = decisions.map((decision) => engine.prompts.build(decision));
    const prefix = sharedPrefix(prompts);
    const branches: Branch[] = prompts.map((prompt) => ({
      suffix: prompt.tokens.slice(prefix.length),
      readings: [{ index: prompt.tokens.length - prefix.length - 1, tokens: prompt.letterTokens }],
    }));
    const samples: Record<string, number[]> = {};
    const add = (name: string, ms: number) => {
      samples[name] ??= [];
      samples[name].push(ms);
    };
    const cache = engine.decisions.cache;
    const body = JSON.stringify({ decisions });
    for (let repeat = 0; repeat < repeats; repeat++) {
      const decision = decisions[repeat % count]!;
      add("build_ms", await timed(() => engine.prompts.build(decision)));
      const text = prompts[repeat % count]!.text;
      add("raw_tokenize_ms", await timed(() => engine.loaded.model.tokenize(text, true)));
      const tokens = prompts[repeat % count]!.tokens;
      if (cache) add("cache_key_ms", await timed(() => cache.key(tokens, branches[0]!.readings, null)));
      add("lease_ms", await timed(() => engine.pool.lease(tokens, async () => undefined)));
      add("json_ms", await timed(() => JSON.stringify({ results: JSON.parse(body).decisions })));
      const parsed = JSON.parse(body) as unknown;
      add(
        "validate_ms",
        await timed(() => {
          const envelope = parseDecisionEnvelope(parsed, engine.config.maxSharedDecisions);
          if (envelope.ok) checkDecisions(envelope.value);
        }),
      );
      add("reserved_ms", await timed(() => findReservedToken(decisions, engine.reservedTokens)));
    }
    await engine.pool.clearIdle();
    await engine.pool.lease(prompts[0]!.tokens, async ({ sequence }) => {
      await sequence.evaluateWithoutGeneratingNewTokens(prefix);
      await passCosts(sequence, prefix, branches, repeats, add);
      for (let repeat = 0; repeat < Math.max(3, Math.round(repeats / 5)); repeat++) {
        const direct = async () => {
          const started = performance.now();
          for (const branch of branches) {
            // What sequential requests with a prompt cache do: keep the common start of the previous prompt.
            const tokens = [...prefix, ...branch.suffix];
            const kept = sequence.compareContextTokens(tokens).firstDifferentIndex;
            await trim(sequence, Math.min(kept, tokens.length - 1));
            const rest = tokens.slice(sequence.nextTokenIndex);
            const input = rest.map((token, index): ControlledEvaluateInputItem => {
              if (index < rest.length - 1) return token;
              return lastToken(rest, branch.readings[0]!.tokens, "selected")[0]!;
            });
            await sequence.controlledEvaluate(input);
          }
          add("raw_ms", performance.now() - started);
        };
        const scheduled = async () => {
          await trim(sequence, prefix.length);
          add("serial_ms", await timed(() => scoreBranches(sequence, prefix, branches, { reusePrefix: true })));
        };
        for (const run of repeat % 2 === 0 ? [direct, scheduled] : [scheduled, direct]) await run();
      }
    });
    const medians = Object.fromEntries(Object.entries(samples).map(([name, ms]) => [name, round(median(ms))]));
    table.push({
      state: `~${target} (${length} tokens)`,
      decisions: count,
      suffix_tokens: Math.round(median(branches.map((branch) => branch.suffix.length))),
      ...medians,
      bookkeeping_ms: round((medians.serial_ms ?? 0) - (medians.raw_ms ?? 0)),
    });
    progress.step();
  }
  console.log(
    `\nshared request fixed costs, ${model}, ${values.threads} thread(s), ${repeats} repeats, load average ${os.loadavg()[0]!.toFixed(1)}\n`,
  );
  const columns = [...new Set(table.flatMap((row) => Object.keys(row)))];
  console.log(`| ${columns.join(" | ")} |`);
  console.log(`| ${columns.map((_, index) => (index === 0 ? "---" : "---:")).join(" | ")} |`);
  for (const row of table) console.log(`| ${columns.map((column) => row[column] ?? "").join(" | ")} |`);
  console.log(JSON.stringify({ model, threads: Number(values.threads), repeats, rows: table }));
}

async function trim(sequence: LlamaContextSequence, length: number) {
  if (sequence.nextTokenIndex > length) {
    await sequence.eraseContextTokenRanges([{ start: length, end: sequence.nextTokenIndex }]);
  }
}

/** Per-branch costs on a sequence holding `prefix`: trimming, reading logits three ways, a pass's fixed part. */
async function passCosts(
  sequence: LlamaContextSequence,
  prefix: readonly Token[],
  branches: readonly Branch[],
  repeats: number,
  add: (name: string, ms: number) => void,
) {
  const modes: ReadMode[] = ["top", "selected", "none"];
  const names = { top: "read_top_ms", selected: "read_selected_ms", none: "no_read_ms" } as const;
  for (let repeat = 0; repeat < repeats; repeat++) {
    const branch = branches[repeat % branches.length]!;
    const head = [...branch.suffix.slice(0, -1)];
    await trim(sequence, prefix.length);
    await sequence.evaluateWithoutGeneratingNewTokens(head);
    for (const mode of repeat % 2 === 0 ? modes : [...modes].reverse()) {
      await trim(sequence, prefix.length + head.length);
      add(
        names[mode],
        await timed(() => sequence.controlledEvaluate(lastToken(branch.suffix, branch.readings[0]!.tokens, mode))),
      );
    }
    add("trim_ms", await timed(() => trim(sequence, prefix.length)));
    const one = await timed(() => sequence.evaluateWithoutGeneratingNewTokens(branch.suffix.slice(0, 1)));
    await trim(sequence, prefix.length);
    const many = [...branch.suffix, ...branch.suffix].slice(0, 32);
    const more = await timed(() => sequence.evaluateWithoutGeneratingNewTokens(many));
    add("pass_fixed_ms", one - (more - one) / (many.length - 1));
  }
}

withBenchEngine(values, measure).catch((error) => {
  console.error(error);
  process.exit(1);
});

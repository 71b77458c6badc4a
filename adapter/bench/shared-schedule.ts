import os from "node:os";
import { parseArgs } from "node:util";
import type { LlamaContextSequence, Token } from "node-llama-cpp";
import type { Decision } from "../src/contract/decision.ts";
import { type Branch, scoreBranches } from "../src/engine/branch-scoring.ts";
import { sharedPrefix } from "../src/engine/canonical-prompt.ts";
import type { Engine } from "../src/engine/engine.ts";
import { copySequencePrefix } from "../src/engine/sequence-copy.ts";
import type { SequenceLease } from "../src/engine/sequence-pool.ts";
import { median, timed, withBenchEngine } from "./bench-engine.ts";
import { jevbenchRows } from "./bench-files.ts";
import { Progress } from "./progress.ts";

/**
 * npm run bench:shared-schedule -- [--threads 1] [--states 500,1500] [--batches 4,8] [--repeats 3] [--kind K]
 *   [--model file.gguf]
 *
 * Where a shared request's time goes, measured on the engine itself (no HTTP), each cell on a new JevBench state
 * with JevBench questions, the two schedules alternated within each repeat:
 * - state: the prefix's own forward pass;
 * - serial: the suffixes one after another on the request's sequence (ADAPTER_BRANCH_SCHEDULE=serial);
 * - batched: the suffixes on one lane each in one batch, lanes copied from the request's sequence
 *   (ADAPTER_BRANCH_SCHEDULE=batched), and the same with the copies made and flushed beforehand, so
 *   `batched - batched_precopied` is what the copies cost (llama.cpp copies a whole KV stream per lane);
 * - one_pass: all the suffixes' tokens as one sequence's single pass: what a forward pass of that many tokens costs,
 *   so `one_pass / serial` says whether bigger passes are cheaper per token on this machine at all.
 * Prints medians (ms) and ratios; not part of `npm test`.
 */
const { values } = parseArgs({
  options: {
    threads: { type: "string", default: "1" },
    states: { type: "string", default: "500,1500" },
    batches: { type: "string", default: "4,8" },
    repeats: { type: "string", default: "3" },
    kind: { type: "string" },
    model: { type: "string" },
  },
});
const list = (value: string) => value.split(",").filter(Boolean).map(Number);

type Sequence = LlamaContextSequence & { _sequenceId?: number };

/** llama.cpp's split of one batch over several KV streams: micro-batches of equal tokens per consecutive sequence. */
function microBatches(suffixLengths: readonly number[]): number {
  const left = [...suffixLengths];
  let count = 0;
  while (left.some((length) => length > 0)) {
    const step = Math.min(...left.filter((length) => length > 0));
    for (const [index, length] of left.entries()) if (length > 0) left[index] = length - step;
    count++;
  }
  return count;
}

async function measure(engine: Engine, model: string) {
  const rows = jevbenchRows();
  const pairs = [...new Map(rows.map((row) => [JSON.stringify([row.question, row.options]), row] as const)).values()];
  const lengthOf = (row: (typeof rows)[number]) => engine.prompts.build({ ...row } as Decision).tokens.length;
  const byLength = rows.map((row) => ({ row, length: lengthOf(row) }));
  const used = new Set<string>();
  let nextPair = 0;
  // The pool's sequences, in llama.cpp sequence-id order: lanes 1..n-1 are consecutive after the request's 0.
  const sequences = [...((engine.pool as unknown as { idle: Sequence[] }).idle ?? [])].sort(
    (a, b) => (a._sequenceId ?? 0) - (b._sequenceId ?? 0),
  );
  const [primary, ...others] = sequences;
  if (!primary || others.length < 7) throw new Error("the engine needs 8 idle sequences");
  const states = list(values.states);
  const batches = list(values.batches);
  const repeats = Number(values.repeats);
  const progress = new Progress("bench:shared-schedule cells", states.length * batches.length * repeats);
  const table: Array<Record<string, number | string>> = [];
  for (const target of states) {
    for (const count of batches) {
      const samples = { state: [], serial: [], batched: [], precopied: [], onePass: [], micro: [] } as Record<
        string,
        number[]
      >;
      for (let repeat = 0; repeat < repeats; repeat++) {
        const candidates = byLength.filter((entry) => !used.has(entry.row.id));
        const { row } = candidates.reduce((a, b) =>
          Math.abs(b.length - target) < Math.abs(a.length - target) ? b : a,
        );
        used.add(row.id);
        const decisions = Array.from({ length: count }, (_, index) => {
          const pair = pairs[nextPair++ % pairs.length]!;
          return { id: `d${index}`, state: row.state, question: pair.question, options: pair.options } as Decision;
        });
        const prompts = decisions.map((decision) => engine.prompts.build(decision));
        const prefix = sharedPrefix(prompts);
        const branches: Branch[] = prompts.map((prompt) => ({
          suffix: prompt.tokens.slice(prefix.length),
          readings: [{ index: prompt.tokens.length - prefix.length - 1, tokens: prompt.letterTokens }],
        }));
        const lanes = others.slice(0, count - 1);
        const lease: SequenceLease = {
          sequence: primary,
          partition: null,
          borrow: async (max) => lanes.slice(0, max),
          giveBack: () => undefined,
          inIdOrder: (held) =>
            [...held].sort((a, b) => ((a as Sequence)._sequenceId ?? 0) - ((b as Sequence)._sequenceId ?? 0)),
        };
        const clearLanes = () => Promise.all(lanes.map((lane) => lane.clearHistory()));
        const backToPrefix = () =>
          primary.eraseContextTokenRanges([{ start: prefix.length, end: primary.nextTokenIndex }]);
        await engine.pool.clearIdle();
        samples.state!.push(await timed(() => primary.evaluateWithoutGeneratingNewTokens(prefix)));
        const serial = async () => {
          await backToPrefix();
          samples.serial!.push(await timed(() => scoreBranches(primary, prefix, branches, { reusePrefix: true })));
        };
        const batched = async () => {
          await clearLanes();
          await backToPrefix();
          samples.batched!.push(await timed(() => scoreBranches(lease, prefix, branches, { reusePrefix: true })));
        };
        for (const run of repeat % 2 === 0 ? [serial, batched] : [batched, serial]) await run();
        // The copies made and flushed first (llama.cpp copies stream buffers at the next decode): one token
        // evaluated on each lane and erased again.
        await clearLanes();
        await backToPrefix();
        for (const lane of lanes) await copySequencePrefix(lane, primary, prefix.length);
        const probe: Token[] = [branches[0]!.suffix[0]!];
        await Promise.all(lanes.map((lane) => lane.evaluateWithoutGeneratingNewTokens(probe)));
        await Promise.all(
          lanes.map((lane) => lane.eraseContextTokenRanges([{ start: prefix.length, end: lane.nextTokenIndex }])),
        );
        samples.precopied!.push(await timed(() => scoreBranches(lease, prefix, branches, { reusePrefix: true })));
        await backToPrefix();
        const allSuffixes = branches.flatMap((branch) => branch.suffix);
        samples.onePass!.push(await timed(() => primary.evaluateWithoutGeneratingNewTokens(allSuffixes)));
        samples.micro!.push(microBatches(branches.map((branch) => branch.suffix.length)));
        progress.step();
      }
      const [state, serial, batched, precopied, onePass] = ["state", "serial", "batched", "precopied", "onePass"].map(
        (key) => median(samples[key]!),
      ) as [number, number, number, number, number];
      table.push({
        cell: `${count} decisions, ~${target}-token state`,
        state_ms: Math.round(state),
        serial_ms: Math.round(serial),
        batched_ms: Math.round(batched),
        batched_precopied_ms: Math.round(precopied),
        copies_ms: Math.round(batched - precopied),
        one_pass_ms: Math.round(onePass),
        micro_batches: median(samples.micro!),
        batched_vs_serial: Math.round((batched / serial) * 1000) / 1000,
        one_pass_vs_serial: Math.round((onePass / serial) * 1000) / 1000,
      });
    }
  }
  console.log(
    `\nshared schedules, ${model}, ${values.threads} thread(s), ${repeats} repeats, load average ${os.loadavg()[0]!.toFixed(1)}\n`,
  );
  const columns = Object.keys(table[0] ?? {});
  console.log(`| ${columns.join(" | ")} |`);
  console.log(`| ${columns.map((_, index) => (index === 0 ? "---" : "---:")).join(" | ")} |`);
  for (const row of table) console.log(`| ${columns.map((column) => row[column]).join(" | ")} |`);
  console.log(JSON.stringify({ model, threads: Number(values.threads), repeats, rows: table }));
}

withBenchEngine(values, measure).catch((error) => {
  console.error(error);
  process.exit(1);
});

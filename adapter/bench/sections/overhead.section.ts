import type { LlamaContextSequence, Token } from "node-llama-cpp";
import type { Decision } from "../../src/contract/decision.ts";
import { type BenchSection, percentile, round } from "../section.ts";

/** One raw node-llama-cpp evaluation of the prompt's tokens with the letters' logits read at the end. */
async function rawEvaluate(sequence: LlamaContextSequence, tokens: Token[], letters: Token[]) {
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

/**
 * overhead_ratio: p50 end-to-end HTTP decision latency / p50 raw evaluation of the identical tokens, same model,
 * context and threads, alternating the two so both see the same machine load. Each state is new and the
 * sequences are emptied first, so the adapter evaluates the whole prompt like the raw call does.
 */
const overhead: BenchSection = {
  name: "overhead",
  order: 10,
  async run(context) {
    const samples = context.jevbench ?? [];
    const count = Math.max(3, context.repeats);
    const http: number[] = [];
    const raw: number[] = [];
    let tokens = 0;
    for (let index = 0; index < count; index++) {
      const row = samples[index % Math.max(1, samples.length)];
      const decision: Decision = row
        ? { id: row.id, state: `${index}: ${JSON.stringify(row.state)}`, question: row.question, options: row.options }
        : {
            id: `d${index}`,
            state: `Ticket ${index}: the customer cannot export a report on the trial plan and asks for a refund.`,
            question: "What should support do?",
            options: [
              { id: "refund", description: "Refund the customer." },
              { id: "explain", description: "Explain the plan limits." },
            ],
          };
      const prompt = context.engine.prompts.build(decision);
      const all = prompt.tokens;
      tokens = all.length;
      const measureHttp = async () => {
        await context.coldStart();
        const answer = await context.invoke({ decision });
        if (answer.status !== 200) throw new Error(`decision failed: ${answer.status} ${JSON.stringify(answer.body)}`);
        http.push(answer.ms);
      };
      const measureRaw = async () => {
        const started = performance.now();
        await context.engine.pool.lease([], (lease) => rawEvaluate(lease.sequence, all, prompt.letterTokens));
        raw.push(performance.now() - started);
      };
      if (index % 2 === 0) {
        await measureHttp();
        await measureRaw();
      } else {
        await measureRaw();
        await measureHttp();
      }
    }
    const ratio = percentile(http, 0.5) / percentile(raw, 0.5);
    return {
      rows: [
        { measure: "decision over HTTP (p50 ms)", value: round(percentile(http, 0.5)), n: http.length, tokens },
        {
          measure: "raw node-llama-cpp evaluation (p50 ms)",
          value: round(percentile(raw, 0.5)),
          n: raw.length,
          tokens,
        },
        { measure: "overhead_ratio", value: round(ratio, 3), n: http.length, tokens },
      ],
      summary: { overhead_ratio: round(ratio, 3) },
    };
  },
};

export default overhead;

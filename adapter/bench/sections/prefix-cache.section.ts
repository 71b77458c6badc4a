import { type BenchContext, type BenchSection, percentile, round, type SectionResult } from "../section.ts";

/**
 * prefix_cache_speedup: the same state (about 1,000 tokens, or half the context on small models) asked in two
 * separate systemone requests, the first after emptying every sequence (cold), the second right after it (warm,
 * the state prefix kept): median cold latency / median warm latency over the repeats.
 */
function cacheRequest(context: BenchContext) {
  const target = Math.min(1000, Math.floor(context.engine.loaded.contextSize / 2));
  const lines: string[] = [];
  while (context.engine.loaded.model.tokenize(lines.join("\n")).length < target) {
    lines.push(
      `Ticket line ${lines.length}: the customer reports a duplicate charge on invoice ${10_000 + lines.length}.`,
    );
  }
  return {
    state: lines.join("\n"),
    questions: { refund: { type: "noul", instructions: "Does the customer ask for a refund?" } },
  };
}

const prefixCache: BenchSection = {
  name: "prefix-cache",
  order: 50,
  async run(context): Promise<SectionResult> {
    const request = cacheRequest(context);
    const cold: number[] = [];
    const warm: number[] = [];
    let prefixTokens = 0;
    for (let repeat = 0; repeat < context.repeats; repeat++) {
      await context.coldStart();
      const first = await context.invoke(request);
      const second = await context.invoke(request);
      type Timed = { timing: { prefix_reused: boolean; prefix_tokens: number } };
      const [a, b] = [first.body as Timed, second.body as Timed];
      if (first.status !== 200 || second.status !== 200 || a.timing.prefix_reused || !b.timing.prefix_reused) {
        throw new Error(`prefix cache: ${first.status}/${second.status} ${JSON.stringify([a, b]).slice(0, 400)}`);
      }
      prefixTokens = b.timing.prefix_tokens;
      cold.push(first.ms);
      warm.push(second.ms);
    }
    const coldMs = percentile(cold, 0.5);
    const warmMs = percentile(warm, 0.5);
    return {
      rows: [
        { measure: "systemone same state, cold (ms)", value: round(coldMs), n: cold.length, tokens: prefixTokens },
        { measure: "systemone same state, warm (ms)", value: round(warmMs), n: warm.length, tokens: prefixTokens },
        { measure: "prefix cache speedup (cold / warm)", value: round(coldMs / warmMs), n: cold.length },
      ],
      summary: {
        prefix_cache_speedup: round(coldMs / warmMs),
        prefix_cache_cold_ms: round(coldMs),
        prefix_cache_warm_ms: round(warmMs),
      },
    };
  },
};

export default prefixCache;

import { type BenchContext, type BenchSection, percentile, round, type SectionResult } from "../section.ts";

/**
 * The same state (about 1,000 tokens, or half the context on small models) in three systemone requests: cold
 * (after emptying every sequence and the reading cache), warm (another question on that state: the state prefix
 * is kept) and an exact repeat of the warm request (answered from the reading cache). prefix_cache_speedup is
 * median cold / median warm latency, repeat_speedup median cold / median repeat.
 */
function cacheRequests(context: BenchContext) {
  const target = Math.min(1000, Math.floor(context.engine.loaded.contextSize / 2));
  const lines: string[] = [];
  while (context.engine.loaded.model.tokenize(lines.join("\n")).length < target) {
    lines.push(
      `Ticket line ${lines.length}: the customer reports a duplicate charge on invoice ${10_000 + lines.length}.`,
    );
  }
  const ask = (id: string, instructions: string) => ({
    model: "jev-latest",
    state: lines.join("\n"),
    questions: { [id]: { type: "noul", instructions } },
  });
  return { cold: ask("refund", "Does the customer ask for a refund?"), warm: ask("urgent", "Is the ticket urgent?") };
}

type Timed = { x_timing: { prefix_reused: boolean; prefix_tokens: number; cache_hits: number } };

const prefixCache: BenchSection = {
  name: "prefix-cache",
  order: 50,
  async run(context): Promise<SectionResult> {
    const requests = cacheRequests(context);
    const cold: number[] = [];
    const warm: number[] = [];
    const repeat: number[] = [];
    let prefixTokens = 0;
    for (let index = 0; index < context.repeats; index++) {
      await context.coldStart();
      const answers = [
        await context.invoke(requests.cold),
        await context.invoke(requests.warm),
        await context.invoke(requests.warm),
      ];
      const [a, b, c] = answers.map((answer) => answer.body as Timed) as [Timed, Timed, Timed];
      if (
        answers.some((answer) => answer.status !== 200) ||
        a.x_timing.prefix_reused ||
        !b.x_timing.prefix_reused ||
        c.x_timing.cache_hits !== 1
      ) {
        throw new Error(`prefix cache: ${JSON.stringify(answers.map((answer) => answer.body)).slice(0, 400)}`);
      }
      prefixTokens = b.x_timing.prefix_tokens;
      cold.push(answers[0]!.ms);
      warm.push(answers[1]!.ms);
      repeat.push(answers[2]!.ms);
    }
    const [coldMs, warmMs, repeatMs] = [cold, warm, repeat].map((values) => percentile(values, 0.5)) as [
      number,
      number,
      number,
    ];
    return {
      rows: [
        { measure: "systemone state, cold (ms)", value: round(coldMs), n: cold.length, tokens: prefixTokens },
        { measure: "same state, another question (ms)", value: round(warmMs), n: warm.length, tokens: prefixTokens },
        { measure: "exact repeat, reading cache (ms)", value: round(repeatMs, 3), n: repeat.length },
        { measure: "prefix cache speedup (cold / warm)", value: round(coldMs / warmMs), n: cold.length },
      ],
      summary: {
        prefix_cache_speedup: round(coldMs / warmMs),
        prefix_cache_cold_ms: round(coldMs),
        prefix_cache_warm_ms: round(warmMs),
        repeat_ms: round(repeatMs, 3),
        repeat_speedup: round(coldMs / repeatMs),
      },
    };
  },
};

export default prefixCache;

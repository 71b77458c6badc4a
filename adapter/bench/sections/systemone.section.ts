import { jevBenchItemSchema, jevBenchToSystemOne } from "../../src/contract/index.ts";
import { Progress } from "../progress.ts";
import { type BenchSection, percentile, round, type SectionResult } from "../section.ts";

/**
 * systemone_p50_ms / p95: the JevBench decisions sent serially as one-question `/v1/systemone` requests through
 * /invocations. A prompt over the adapter's token limit is refused with 422 (never truncated) and counted apart.
 */
const systemone: BenchSection = {
  name: "systemone",
  order: 40,
  async run(context): Promise<SectionResult> {
    const latencies: number[] = [];
    let refused = 0;
    let correct = 0;
    let tokens = 0;
    const progress = new Progress("systemone JevBench", context.jevbench.length);
    for (const row of progress.each(context.jevbench)) {
      const converted = jevBenchToSystemOne(jevBenchItemSchema.parse(row));
      const answer = await context.invoke(converted.request);
      if (answer.status === 400) {
        refused++;
        continue;
      }
      if (answer.status !== 200)
        throw new Error(`systemone ${row.id}: ${answer.status} ${JSON.stringify(answer.body)}`);
      latencies.push(answer.ms);
      const body = answer.body as {
        usage: { input_tokens: number };
        answers: Record<string, { probabilities?: Record<string, number>; x_probabilities?: Record<string, number> }>;
      };
      tokens += body.usage.input_tokens;
      const answered = body.answers[converted.questionId]!;
      const probabilities = answered.probabilities ?? answered.x_probabilities!;
      const best = Object.entries(probabilities).sort((a, b) => b[1] - a[1])[0]![0];
      if (best === converted.expected) correct++;
    }
    const n = latencies.length;
    const perRequest = n ? Math.round(tokens / n) : 0;
    return {
      rows: [
        { measure: "systemone JevBench p50 (ms)", value: round(percentile(latencies, 0.5)), n, tokens: perRequest },
        { measure: "systemone JevBench p95 (ms)", value: round(percentile(latencies, 0.95)), n, tokens: perRequest },
        { measure: "systemone refused (over the token limit)", value: refused, n: refused, tokens: 0 },
        { measure: "systemone accuracy (random weights: chance level)", value: round(correct / Math.max(1, n), 3), n },
      ],
      summary: {
        systemone_p50_ms: n ? round(percentile(latencies, 0.5)) : null,
        systemone_p95_ms: n ? round(percentile(latencies, 0.95)) : null,
        systemone_n: n,
        systemone_refused: refused,
      },
    };
  },
};

export default systemone;

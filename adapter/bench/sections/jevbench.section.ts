import { Progress } from "../progress.ts";
import { type BenchSection, percentile, round, type SectionResult } from "../section.ts";

/**
 * jevbench_p50_ms / p95: the run's JevBench decisions sent serially, as a client would, object states as JSON
 * (each state is new to the adapter; exact repeats would be answered from the reading cache).
 */
const jevbench: BenchSection = {
  name: "jevbench",
  order: 30,
  async run(context): Promise<SectionResult> {
    const latencies: number[] = [];
    let correct = 0;
    let refused = 0;
    let tokens = 0;
    const progress = new Progress("JevBench decisions", context.jevbench.length);
    for (const row of progress.each(context.jevbench)) {
      const answer = await context.invoke({
        decision: { id: row.id, state: row.state, question: row.question, options: row.options },
      });
      if (answer.status === 400 && /token budget/.test(JSON.stringify(answer.body))) {
        refused++;
        continue;
      }
      if (answer.status !== 200) throw new Error(`JevBench ${row.id}: ${answer.status} ${JSON.stringify(answer.body)}`);
      latencies.push(answer.ms);
      const result = (
        answer.body as { result: { option_ids: string[]; probabilities: number[]; input_tokens: number } }
      ).result;
      tokens += result.input_tokens;
      const best = result.probabilities.indexOf(Math.max(...result.probabilities));
      if (result.option_ids[best] === row.answer) correct++;
    }
    const n = latencies.length;
    return {
      rows: [
        { measure: "JevBench p50 (ms)", value: round(percentile(latencies, 0.5)), n, tokens: Math.round(tokens / n) },
        { measure: "JevBench p95 (ms)", value: round(percentile(latencies, 0.95)), n, tokens: Math.round(tokens / n) },
        {
          measure: "JevBench accuracy (random weights: chance level)",
          value: round(correct / n, 3),
          n,
          tokens: Math.round(tokens / n),
        },
      ],
      summary: {
        jevbench_p50_ms: round(percentile(latencies, 0.5)),
        jevbench_p95_ms: round(percentile(latencies, 0.95)),
        jevbench_n: n,
        jevbench_refused: refused,
      },
    };
  },
};

export default jevbench;

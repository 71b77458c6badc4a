import { Progress } from "../progress.ts";
import { type BenchSection, round } from "../section.ts";

const STATE_SENTENCE =
  "The customer bought a laptop twelve days ago, has the receipt, reports that the screen flickers after the last " +
  "update, asked support twice, and now requests either a refund or a replacement before the trial ends. ";
const QUESTIONS = [
  "Refund?",
  "Replace?",
  "Escalate?",
  "Is it urgent?",
  "Is the receipt valid?",
  "Within policy?",
  "Fraud risk?",
  "Close the ticket?",
];
const OPTIONS = [
  { id: "yes", description: "Yes." },
  { id: "no", description: "No." },
];

type Timed = {
  timing: { prefix_tokens: number; lanes: number; prefill_seconds: number; suffix_forward_seconds: number };
};

/**
 * shared_speedup: the same 8 decisions over a ~1,000-token state (as long as the default budget allows) sent as 8
 * separate cold requests, divided by the time of one shared request. Every request starts cold (sequences and
 * reading cache emptied), so each separate request evaluates its whole prompt, as SemIf's separate scoring does;
 * the shared request evaluates the state once and the 8 suffixes on as many lanes as ADAPTER_PARALLEL gives.
 */
const shared: BenchSection = {
  name: "shared",
  order: 20,
  async run(context) {
    // As long a state as SemIf's default budget allows: every prompt within min(max_tokens, max_request / 8).
    const { config, prompts } = context.engine;
    const budget = Math.min(config.maxTokens, Math.floor(config.maxRequestTokens / QUESTIONS.length));
    const decisionsOver = (state: string) =>
      QUESTIONS.map((question, index) => ({ id: `q${index}`, state, question, options: OPTIONS }));
    const fits = (state: string) =>
      decisionsOver(state).every((decision) => prompts.build(decision).tokens.length <= budget);
    let state = STATE_SENTENCE;
    while (fits(state + STATE_SENTENCE)) state += STATE_SENTENCE;
    const decisions = decisionsOver(state);
    await context.coldStart();
    const together = await context.invoke({ decisions });
    if (together.status !== 200)
      throw new Error(`shared request failed: ${together.status} ${JSON.stringify(together.body)}`);
    let separateMs = 0;
    const progress = new Progress("shared: 8 separate cold requests", decisions.length);
    for (const decision of progress.each(decisions)) {
      await context.coldStart();
      const alone = await context.invoke({ decision });
      if (alone.status !== 200) throw new Error(`separate request failed: ${alone.status}`);
      separateMs += alone.ms;
    }
    const { timing } = together.body as Timed;
    const speedup = separateMs / together.ms;
    const tokens = timing.prefix_tokens;
    return {
      rows: [
        { measure: "8 decisions as 8 separate requests (ms)", value: round(separateMs), n: 8, tokens },
        { measure: "8 decisions as one shared request (ms)", value: round(together.ms), n: 1, tokens },
        { measure: "  of which the state's pass (ms)", value: round(timing.prefill_seconds * 1000), n: 1, tokens },
        {
          measure: `  of which the suffixes, ${timing.lanes} lane(s) (ms)`,
          value: round(timing.suffix_forward_seconds * 1000),
          n: 1,
          tokens,
        },
        { measure: "shared_speedup", value: round(speedup, 2), n: 8, tokens },
      ],
      summary: { shared_speedup: round(speedup, 2), shared_state_tokens: tokens, shared_lanes: timing.lanes },
    };
  },
};

export default shared;

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
 * The same 8 decisions over a ~1,000-token state (as long as the default budget allows), three ways, one after
 * another in one run: one shared request; 8 separate requests in sequence on warm sequences (the first evaluates
 * the state, the other 7 find it kept: what any caller of an adapter with a prefix cache pays, the honest
 * baseline); and 8 separate cold requests (sequences emptied before each, as SemIf's separate scoring pays).
 * - shared_vs_warm_sequential: shared ms / warm sequential ms (at most 1: the shared request is never slower);
 * - shared_speedup: cold separate ms / shared ms (the figure older runs reported, against a baseline no caller
 *   with a prefix cache pays).
 * The reading cache is emptied with the sequences, and the 8 questions differ, so no request is a cache hit.
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
    await context.coldStart();
    let warmMs = 0;
    for (const decision of new Progress("shared: 8 sequential warm requests", decisions.length).each(decisions)) {
      const alone = await context.invoke({ decision });
      if (alone.status !== 200) throw new Error(`sequential request failed: ${alone.status}`);
      warmMs += alone.ms;
    }
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
    const againstWarm = together.ms / warmMs;
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
        { measure: "8 decisions as 8 sequential warm requests (ms)", value: round(warmMs), n: 8, tokens },
        { measure: "shared_vs_warm_sequential", value: round(againstWarm, 3), n: 8, tokens },
        { measure: "shared_speedup (against cold separate requests)", value: round(speedup, 2), n: 8, tokens },
      ],
      summary: {
        shared_vs_warm_sequential: round(againstWarm, 3),
        shared_speedup: round(speedup, 2),
        shared_state_tokens: tokens,
        shared_lanes: timing.lanes,
        branch_schedule: context.engine.config.branchSchedule,
      },
    };
  },
};

export default shared;

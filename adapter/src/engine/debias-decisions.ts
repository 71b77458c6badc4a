import type { Decision, DecisionResult, SharedDecisionResponse, SingleDecisionResponse } from "../contract/decision.ts";
import { averageOrders, rotate, rotationOffsets } from "./debias.ts";
import { scoredLength } from "./decision-labels.ts";
import type { Engine } from "./engine.ts";
import { PROMPT_VERSION } from "./prompt.ts";
import { RequestError } from "./request-error.ts";

/**
 * Decisions with `permutations` > 1: every decision is scored in n cyclic orders of its options, all as branches
 * after the one shared state prefix, and each option's probability is averaged over the orders (DESIGN §4,
 * "Beyond SemIf"). Raw fields (`option_logits`, `answer_token_ids`, `allowed_token_mass`, `prompt_sha256`...)
 * describe the order as sent; `probabilities` are the averages, `spread` each option's max - min across orders.
 */
export async function scoreDebiasedDecisions(
  engine: Engine,
  decisions: readonly Decision[],
  mode: "single" | "shared",
  permutations: number,
): Promise<SingleDecisionResponse | SharedDecisionResponse> {
  const started = performance.now();
  const { prompts, perDecision } = engine.decisions.prepare(decisions, mode);
  const orders = decisions.map((decision, index) =>
    rotationOffsets(decision.options.length, permutations).map((offset) => ({
      offset,
      prompt:
        offset === 0
          ? prompts[index]!
          : engine.prompts.build({ ...decision, options: rotate(decision.options, offset) }),
    })),
  );
  for (const [index, decisionOrders] of orders.entries()) {
    for (const { prompt } of decisionOrders) {
      const length = scoredLength(prompt);
      if (length > perDecision) {
        const where = mode === "single" ? "the decision" : `decisions[${index}]`;
        throw new RequestError(
          `decisions exceeds the request token budget: ${where} has ${length} prompt tokens in one of its option ` +
            `orders, at most ${perDecision} are allowed (prompts are never truncated)`,
        );
      }
    }
  }
  const branchPrompts = orders.flat().map(({ prompt }) => prompt);
  const scored = await engine.decisions.read(branchPrompts);
  const temperature = engine.config.temperature;
  let branch = 0;
  const results = decisions.map((decision, index): DecisionResult => {
    const decisionOrders = orders[index]!;
    const readings = decisionOrders.map(() => scored.readings[branch++]!);
    const asSent = readings[0]!;
    const prompt = decisionOrders[0]!.prompt;
    const { probabilities, spread } = averageOrders(
      readings.map((r) => r.probabilities),
      decisionOrders.map((o) => o.offset),
    );
    return {
      id: decision.id,
      option_ids: decision.options.map((option) => option.id),
      probabilities,
      option_logits: asSent.logits,
      answer_token_ids: prompt.letterTokens,
      ...(prompt.codeTokens ? { answer_code_token_ids: prompt.codeTokens } : {}),
      allowed_token_mass: asSent.mass,
      full_vocab_argmax_id: asSent.argmaxToken,
      input_tokens: prompt.tokens.length,
      prompt_sha256: prompt.sha256,
      prompt_version: PROMPT_VERSION,
      temperature,
      forward_seconds: Math.max(...readings.map((r) => r.seconds)),
      model: engine.metadata,
      permutations: decisionOrders.length,
      spread,
    };
  });
  const timing = engine.decisions.timing(scored, decisions.length, perDecision, started);
  return mode === "single" ? { result: results[0]!, timing } : { results, timing };
}

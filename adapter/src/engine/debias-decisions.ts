import type { Timing } from "../contract/common.ts";
import type { Decision, DecisionResult, SharedDecisionResponse, SingleDecisionResponse } from "../contract/decision.ts";
import { averageOrders, rotate, rotationOffsets } from "./debias.ts";
import { readDecisionLabels, scoredLength } from "./decision-labels.ts";
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
  const prefix = branchPrompts[0]!.prefix;
  const queued = performance.now();
  let queueSeconds = 0;
  const temperature = engine.config.temperature;
  const scores = await engine.pool.lease(prefix, (sequence) => {
    queueSeconds = (performance.now() - queued) / 1000;
    return readDecisionLabels(sequence, prefix, branchPrompts, temperature);
  });
  let branch = 0;
  const results = decisions.map((decision, index): DecisionResult => {
    const decisionOrders = orders[index]!;
    const readings = decisionOrders.map(() => scores.readings[branch++]!);
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
      input_tokens: prompt.prefix.length + prompt.body.length + prompt.tail.length,
      prompt_sha256: prompt.sha256,
      prompt_version: PROMPT_VERSION,
      temperature,
      forward_seconds:
        readings.reduce((sum, r) => sum + r.seconds, 0) + (mode === "single" ? scores.prefillSeconds : 0),
      model: engine.metadata,
      permutations: decisionOrders.length,
      spread,
    };
  });
  const timing: Timing = {
    batch_size: decisions.length,
    prefix_tokens: scores.prefixTokens,
    prefix_reused: scores.reusedTokens === scores.prefixTokens,
    prefill_seconds: scores.prefillSeconds,
    suffix_forward_seconds: scores.readings.reduce((sum, r) => sum + r.seconds, 0),
    max_request_tokens: engine.config.maxRequestTokens,
    max_tokens_per_decision: perDecision,
    queue_seconds: queueSeconds,
    total_seconds: (performance.now() - started) / 1000,
  };
  return mode === "single" ? { result: results[0]!, timing } : { results, timing };
}

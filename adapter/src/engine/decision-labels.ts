import type { Token } from "node-llama-cpp";
import { softmax } from "../contract/softmax.ts";
import { type Branch, type BranchScores, type ScoreOptions, scoreBranches } from "./branch-scoring.ts";
import { codeBranch } from "./multi-token.ts";
import { allowedTokenMass } from "./option-math.ts";
import type { DecisionPrompt } from "./prompt.ts";
import type { SequenceLease } from "./sequence-pool.ts";

/** One decision prompt's answer distribution over its option labels (see `decisionResultSchema` for the fields). */
export type LabelReading = {
  /** Letter logits (up to 26 options) or each two-letter code's summed log-probability (more). */
  logits: number[];
  probabilities: number[];
  /** Full-vocabulary probability that falls on the label set. */
  mass: number;
  argmaxToken: Token;
  seconds: number;
};

export type DecisionReadings = { scores: Omit<BranchScores, "branches">; readings: LabelReading[] };

/** Tokens a prompt's scoring puts in the context: the prompt, plus the code tokens above its last token. */
export const scoredLength = (prompt: DecisionPrompt) =>
  prompt.tokens.length + (prompt.codeTokens ? Math.max(...prompt.codeTokens.map((code) => code.length)) - 1 : 0);

/**
 * Scores decision prompts that share `prefix`, all as branches after it (batched over idle sequences where there
 * are any): single-letter prompts read at their last position (SemIf's final-position path), prompts with
 * two-letter codes by summed token log-probabilities over a trie of the codes (`codeBranch`, as /v1/systemone).
 */
export async function readDecisionLabels(
  lease: SequenceLease,
  prefix: readonly Token[],
  prompts: readonly DecisionPrompt[],
  temperature: number,
  options: ScoreOptions,
): Promise<DecisionReadings> {
  const plans = prompts.map((prompt) => {
    const suffix = prompt.tokens.slice(prefix.length);
    if (prompt.codeTokens) return codeBranch(suffix, prompt.codeTokens);
    const branch: Branch = { suffix, readings: [{ index: suffix.length - 1, tokens: prompt.letterTokens }] };
    return { branch, read: null };
  });
  const { branches, ...scores } = await scoreBranches(
    lease,
    prefix,
    plans.map((plan) => plan.branch),
    options,
  );
  const readings = plans.map((plan, index): LabelReading => {
    const score = branches[index]!;
    if (plan.read) {
      const codes = plan.read(score, temperature);
      return {
        logits: codes.logProbabilities,
        probabilities: codes.probabilities,
        mass: codes.labelMass,
        argmaxToken: codes.firstArgmaxToken,
        seconds: score.seconds,
      };
    }
    const reading = score.readings[0]!;
    return {
      logits: reading.logits,
      probabilities: softmax(reading.logits, temperature),
      mass: allowedTokenMass(reading.logits, reading.logZ),
      argmaxToken: reading.argmaxToken,
      seconds: score.seconds,
    };
  });
  return { scores, readings };
}

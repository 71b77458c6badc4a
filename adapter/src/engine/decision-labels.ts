import type { LlamaContextSequence, Token } from "node-llama-cpp";
import { softmax } from "../contract/softmax.ts";
import { scoreBranches } from "./branch-scoring.ts";
import { scoreCodes } from "./multi-token.ts";
import { allowedTokenMass } from "./option-math.ts";
import type { DecisionPrompt } from "./prompt.ts";

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

export type DecisionReadings = {
  prefixTokens: number;
  reusedTokens: number;
  prefillSeconds: number;
  /** Seconds spent after the state prefix's pass (which also holds the first letter branch, if any). */
  suffixSeconds: number;
  readings: LabelReading[];
};

/** Tokens a prompt's scoring puts in the context: the prompt, plus the code tokens above its last token. */
export const scoredLength = (prompt: DecisionPrompt) =>
  prompt.prefix.length +
  prompt.body.length +
  prompt.tail.length +
  (prompt.codeTokens ? Math.max(...prompt.codeTokens.map((code) => code.length)) - 1 : 0);

/**
 * Scores decision prompts that share `prefix` on one sequence. Single-letter prompts are branches after the
 * prefix read at their last position (SemIf's final-position path); prompts with two-letter codes are then scored
 * by summed token log-probabilities over a trie of the codes (`scoreCodes`, as /v1/systemone does), keeping the
 * prefix evaluated.
 */
export async function readDecisionLabels(
  sequence: LlamaContextSequence,
  prefix: readonly Token[],
  prompts: readonly DecisionPrompt[],
  temperature: number,
): Promise<DecisionReadings> {
  const letterPrompts = prompts.flatMap((prompt, index) => (prompt.codeTokens ? [] : [index]));
  const letters = await scoreBranches(
    sequence,
    prefix,
    letterPrompts.map((index) => {
      const prompt = prompts[index]!;
      const suffix = [...prompt.body, ...prompt.tail];
      return { suffix, readings: [{ index: suffix.length - 1, tokens: prompt.letterTokens }] };
    }),
    { reusePrefix: true },
  );
  const readings = new Array<LabelReading>(prompts.length);
  for (const [branchIndex, promptIndex] of letterPrompts.entries()) {
    const branch = letters.branches[branchIndex]!;
    const reading = branch.readings[0]!;
    readings[promptIndex] = {
      logits: reading.logits,
      probabilities: softmax(reading.logits, temperature),
      mass: allowedTokenMass(reading.logits, reading.logZ),
      argmaxToken: reading.argmaxToken,
      seconds: branch.seconds,
    };
  }
  let suffixSeconds = letters.branches.slice(1).reduce((sum, branch) => sum + branch.seconds, 0);
  for (const [index, prompt] of prompts.entries()) {
    if (!prompt.codeTokens) continue;
    const started = performance.now();
    const scored = await scoreCodes(sequence, [...prompt.prefix, ...prompt.body, ...prompt.tail], prompt.codeTokens, {
      temperature,
      reusePrefix: true,
    });
    const seconds = (performance.now() - started) / 1000;
    suffixSeconds += seconds;
    readings[index] = {
      logits: scored.logProbabilities,
      probabilities: scored.probabilities,
      mass: scored.labelMass,
      argmaxToken: scored.firstArgmaxToken,
      seconds,
    };
  }
  return {
    prefixTokens: letters.prefixTokens,
    reusedTokens: letters.reusedTokens,
    prefillSeconds: letters.prefillSeconds,
    suffixSeconds,
    readings,
  };
}

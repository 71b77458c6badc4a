import type { LlamaContextSequence, LlamaModel } from "node-llama-cpp";
import type { SystemOneLabel, SystemOneTiming } from "../contract/systemone.ts";
import { type CachedBranch, scoreBranches } from "./branch-scoring.ts";
import { type PromptTemplate, sharedPrefix } from "./canonical-prompt.ts";
import { averageOrders, rotate, rotationOffsets } from "./debias.ts";
import { codeBranch } from "./multi-token.ts";
import type { ReadingCache } from "./reading-cache.ts";
import { RequestError } from "./request-error.ts";
import { reuseTiming } from "./reuse-timing.ts";
import type { SequenceLease } from "./sequence-pool.ts";
import { type QuestionPrompt, SystemOnePromptBuilder } from "./systemone-prompt.ts";

export type SystemOneLimits = {
  /** Tokens one question's prompt may hold (SEMIF_MAX_TOKENS, capped by the context). */
  maxTokens: number;
  /** Tokens one request may evaluate: the state once plus every question's text and labels (SEMIF_MAX_REQUEST_TOKENS). */
  maxRequestTokens: number;
  maxQuestions: number;
};

/**
 * One question of any decision protocol (TypeSafe's System One, OpenAI's Decisions) as the scorer reads it: its
 * text (null: none) and its options in presentation order. The protocols map their questions to this and their
 * answers from the probabilities it gives back.
 */
export type ScoringQuestion = { id: string; instructions: string | null; labels: SystemOneLabel[] };
export type ScoringRequest = { state: string; questions: ScoringQuestion[]; permutations?: number };

/** A request within the protocol's rules that the limits cannot take: refused 400 with the limit named. */
const limitError = (message: string) => new RequestError(message, 400, "max_tokens_exceeded");

type PlannedQuestion = { id: string; offsets: number[]; prompts: QuestionPrompt[] };

export type SystemOnePlan = {
  prefixTokens: number;
  inputTokens: number;
  questions: PlannedQuestion[];
  /** Questions left out because their prompt alone exceeds the per-question limit (when the caller allows it). */
  refused: string[];
};

export type ScoredQuestion = { probabilities: number[]; spread: number[] | null };
export type ScoringResult = {
  scored: Map<string, ScoredQuestion>;
  inputTokens: number;
  /** Tokens of the state prefix found already evaluated from an earlier request. */
  cachedTokens: number;
  timing: SystemOneTiming;
};

/**
 * Answers the questions of `/v1/systemone` and `/v1/decisions` requests on the decision scoring
 * engine: the state prefix is evaluated once per request (and kept across requests while the next one asks about the same state); each question, in each of its
 * `permutations` option orders, evaluates only its own text and its labels.
 */
export class SystemOneEngine {
  private readonly prompts: SystemOnePromptBuilder;

  constructor(
    model: LlamaModel,
    template: PromptTemplate,
    private readonly limits: SystemOneLimits,
    private readonly defaultPermutations: number,
  ) {
    this.prompts = new SystemOnePromptBuilder(model, template);
  }

  /**
   * Builds and measures every prompt before any evaluation, so an over-long request costs no model time. With
   * `refuseTooLong`, a question whose prompt alone exceeds the per-question limit is left out and listed in
   * `refused` (OpenAI's per-question refusal) instead of refusing the request.
   */
  plan(request: ScoringRequest, { refuseTooLong = false }: { refuseTooLong?: boolean } = {}): SystemOnePlan {
    if (request.questions.length > this.limits.maxQuestions) {
      throw new RequestError(
        `questions: at most ${this.limits.maxQuestions} questions per request (SYSTEMONE_MAX_QUESTIONS)`,
        400,
        "too_many_questions",
      );
    }
    const permutations = request.permutations ?? this.defaultPermutations;
    const refused: string[] = [];
    const questions: PlannedQuestion[] = [];
    for (const { id, instructions, labels } of request.questions) {
      const offsets = rotationOffsets(labels.length, permutations);
      const prompts = offsets.map((offset) => {
        try {
          return this.prompts.build(request.state, instructions, rotate(labels, offset));
        } catch (error) {
          if (error instanceof RequestError) throw new RequestError(`questions.${id}: ${error.message}`, 400);
          throw error;
        }
      });
      const length = Math.max(
        ...prompts.map((prompt) => prompt.tokens.length + Math.max(...prompt.codes.map((c) => c.length)) - 1),
      );
      if (length > this.limits.maxTokens) {
        if (refuseTooLong) {
          refused.push(id);
          continue;
        }
        throw limitError(
          `questions.${id}: the prompt needs ${length} tokens, more than the per-question limit of ` +
            `${this.limits.maxTokens} (SEMIF_MAX_TOKENS, at most the model's context)`,
        );
      }
      questions.push({ id, offsets, prompts });
    }
    const all = questions.flatMap((planned) => planned.prompts);
    const prefixTokens = all.length > 0 ? sharedPrefix(all).length : 0;
    const inputTokens = all.reduce((sum, prompt) => sum + prompt.tokens.length - prefixTokens, prefixTokens);
    if (inputTokens > this.limits.maxRequestTokens) {
      throw limitError(
        `questions: the request needs ${inputTokens} tokens, more than the request budget of ` +
          `${this.limits.maxRequestTokens} (SEMIF_MAX_REQUEST_TOKENS)`,
      );
    }
    return { prefixTokens, inputTokens, questions, refused };
  }

  /** Scores a plan with at least one question: each question's probabilities in its labels' order. */
  async answer(
    target: LlamaContextSequence | SequenceLease,
    plan: SystemOnePlan,
    options: { temperature: number; reusePrefix: boolean; cache?: ReadingCache<CachedBranch> | null },
  ): Promise<ScoringResult> {
    const started = performance.now();
    // Every question in every option order is one branch after the shared state prefix, evaluated together on
    // as many idle sequences as there are (the state in a pass of its own before them).
    const prompts = plan.questions.flatMap((planned) => planned.prompts);
    const prefix = prompts[0]!.tokens.slice(0, plan.prefixTokens);
    const branches = prompts.map((prompt) => codeBranch(prompt.tokens.slice(prefix.length), prompt.codes));
    const { branches: scoredBranches, ...scores } = await scoreBranches(
      target,
      prefix,
      branches.map((branch) => branch.branch),
      { reusePrefix: options.reusePrefix, cache: options.cache ?? null },
    );
    const scored = new Map<string, ScoredQuestion>();
    let next = 0;
    for (const planned of plan.questions) {
      const perOrder = planned.prompts.map(() => {
        const index = next++;
        return branches[index]!.read(scoredBranches[index]!, options.temperature).probabilities;
      });
      const { probabilities, spread } = averageOrders(perOrder, planned.offsets);
      scored.set(planned.id, { probabilities, spread: perOrder.length > 1 ? spread : null });
    }
    return {
      scored,
      inputTokens: plan.inputTokens,
      cachedTokens: scores.prefixReused ? plan.prefixTokens : 0,
      timing: {
        prefix_tokens: plan.prefixTokens,
        prefix_reused: scores.prefixReused,
        prefill_seconds: scores.prefillSeconds,
        labels_seconds: scores.branchSeconds,
        permutations: Math.max(...plan.questions.map((q) => q.offsets.length)),
        total_seconds: (performance.now() - started) / 1000,
        ...reuseTiming(scores, options.cache ?? null),
      },
    };
  }
}

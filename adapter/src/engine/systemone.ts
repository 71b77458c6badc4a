import type { LlamaContextSequence, LlamaModel } from "node-llama-cpp";
import { renderState } from "../contract/decision.ts";
import {
  answerConfidence,
  questionLabels,
  type SystemOneAnswer,
  type SystemOneLabel,
  type SystemOneQuestion,
  type SystemOneRequest,
  type SystemOneResponse,
} from "../contract/systemone.ts";
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

/** A request that is valid JSON but cannot be answered within the limits: answered 422, naming the field. */
const inputError = (message: string) => new RequestError(message, 422);

type PlannedQuestion = {
  id: string;
  question: SystemOneQuestion;
  labels: SystemOneLabel[];
  offsets: number[];
  prompts: QuestionPrompt[];
};

export type SystemOnePlan = { prefixTokens: number; inputTokens: number; questions: PlannedQuestion[] };

const round = (value: number) => Math.round(value * 1e9) / 1e9;

function toAnswer(
  question: SystemOneQuestion,
  labels: SystemOneLabel[],
  probabilities: number[],
  spread: number[] | null,
): SystemOneAnswer {
  const keyed = (values: number[]) => Object.fromEntries(labels.map((label, i) => [label.key, round(values[i]!)]));
  const spreadField = spread ? { spread: keyed(spread) } : {};
  const confidence = round(answerConfidence(probabilities));
  const best = probabilities.indexOf(Math.max(...probabilities));
  switch (question.type) {
    case "noul": {
      const yes = round(probabilities[0]!);
      return {
        type: "noul",
        noul: yes,
        value: yes,
        confidence,
        probabilities: { yes, no: round(probabilities[1]!) },
        ...spreadField,
      };
    }
    case "choice":
      return {
        type: "choice",
        choice: labels[best]!.key,
        confidence,
        probabilities: keyed(probabilities),
        ...spreadField,
      };
    case "score":
      return {
        type: "score",
        score: round(probabilities.reduce((sum, p, level) => sum + p * level, 0)),
        level: labels[best]!.key,
        confidence,
        probabilities: keyed(probabilities),
        legend: Object.fromEntries(labels.map((label) => [label.key, label.description])),
        ...spreadField,
      };
  }
}

/**
 * Answers `/v1/systemone` requests on the decision scoring engine: the state prefix is evaluated once per request
 * (and kept across requests while the next one asks about the same state); each question, in each of its
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

  /** Builds and measures every prompt before any evaluation, so an over-long request costs no model time. */
  plan(request: SystemOneRequest): SystemOnePlan {
    const entries = Object.entries(request.questions);
    if (entries.length > this.limits.maxQuestions) {
      throw inputError(`questions: at most ${this.limits.maxQuestions} questions per request`);
    }
    const state = renderState(request.state);
    const permutations = request.permutations ?? this.defaultPermutations;
    const questions = entries.map(([id, question]) => {
      const labels = questionLabels(question);
      const offsets = rotationOffsets(labels.length, permutations);
      const prompts = offsets.map((offset) => {
        try {
          return this.prompts.build(state, question.instructions, rotate(labels, offset));
        } catch (error) {
          if (error instanceof RequestError) throw inputError(`questions.${id}: ${error.message}`);
          throw error;
        }
      });
      for (const prompt of prompts) {
        const length = prompt.tokens.length + Math.max(...prompt.codes.map((c) => c.length)) - 1;
        if (length > this.limits.maxTokens) {
          throw inputError(
            `questions.${id}: the prompt needs ${length} tokens, more than the limit of ${this.limits.maxTokens}`,
          );
        }
      }
      return { id, question, labels, offsets, prompts };
    });
    const all = questions.flatMap((planned) => planned.prompts);
    const prefixTokens = sharedPrefix(all).length;
    const inputTokens = all.reduce((sum, prompt) => sum + prompt.tokens.length - prefixTokens, prefixTokens);
    if (inputTokens > this.limits.maxRequestTokens) {
      throw inputError(
        `questions: the request needs ${inputTokens} tokens, more than the request budget of ${this.limits.maxRequestTokens}`,
      );
    }
    return { prefixTokens, inputTokens, questions };
  }

  async answer(
    target: LlamaContextSequence | SequenceLease,
    plan: SystemOnePlan,
    options: { temperature: number; reusePrefix: boolean; cache?: ReadingCache<CachedBranch> | null },
  ): Promise<Omit<SystemOneResponse, "model" | "latency_ms">> {
    const started = performance.now();
    // Every question in every option order is one branch after the shared state prefix, evaluated together on
    // as many idle sequences as there are (the state in a pass of its own before them).
    const prompts = plan.questions.flatMap((planned) => planned.prompts);
    const prefix = prompts[0]!.tokens.slice(0, plan.prefixTokens);
    const branches = prompts.map((prompt) => codeBranch(prompt.tokens.slice(prefix.length), prompt.codes));
    const { branches: scored, ...scores } = await scoreBranches(
      target,
      prefix,
      branches.map((branch) => branch.branch),
      { reusePrefix: options.reusePrefix, cache: options.cache ?? null },
    );
    const answers: Record<string, SystemOneAnswer> = {};
    let next = 0;
    for (const planned of plan.questions) {
      const perOrder = planned.prompts.map(() => {
        const index = next++;
        return branches[index]!.read(scored[index]!, options.temperature).probabilities;
      });
      const { probabilities, spread } = averageOrders(perOrder, planned.offsets);
      answers[planned.id] = toAnswer(
        planned.question,
        planned.labels,
        probabilities,
        perOrder.length > 1 ? spread : null,
      );
    }
    return {
      answers,
      usage: { input_tokens: plan.inputTokens, output_tokens: 0 },
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

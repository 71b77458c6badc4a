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
import { scoreBranches } from "./branch-scoring.ts";
import { averageOrders, rotate, rotationOffsets } from "./debias.ts";
import { scoreCodes } from "./multi-token.ts";
import type { PromptTemplate } from "./prompt.ts";
import { RequestError } from "./request-error.ts";
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
    let prefixTokens = 0;
    let inputTokens = 0;
    const questions = entries.map(([id, question]) => {
      const labels = questionLabels(question);
      const offsets = rotationOffsets(labels.length, permutations);
      const prompts = offsets.map((offset) => this.prompts.build(state, question.instructions, rotate(labels, offset)));
      for (const prompt of prompts) {
        const length = prompt.prefix.length + prompt.suffix.length + Math.max(...prompt.codes.map((c) => c.length));
        if (length > this.limits.maxTokens) {
          throw inputError(
            `questions.${id}: the prompt needs ${length} tokens, more than the limit of ${this.limits.maxTokens}`,
          );
        }
        prefixTokens = prompt.prefix.length;
        inputTokens += prompt.suffix.length;
      }
      return { id, question, labels, offsets, prompts };
    });
    inputTokens += prefixTokens;
    if (inputTokens > this.limits.maxRequestTokens) {
      throw inputError(
        `questions: the request needs ${inputTokens} tokens, more than the request budget of ${this.limits.maxRequestTokens}`,
      );
    }
    return { prefixTokens, inputTokens, questions };
  }

  async answer(
    sequence: LlamaContextSequence,
    plan: SystemOnePlan,
    options: { temperature: number; reusePrefix: boolean },
  ): Promise<Omit<SystemOneResponse, "model" | "latency_ms">> {
    const started = performance.now();
    // The state is evaluated in a pass of its own, so every question's text is evaluated after it in the same
    // way whether the state was just evaluated or kept from an earlier request: a warm answer equals a cold one.
    // When the sequence already holds the first question's prompt (same state, same first question), that is
    // kept too instead of being trimmed back to the state.
    const first = plan.questions[0]!.prompts[0]!;
    const statePrefix = first.prefix;
    const firstHead = [...first.prefix, ...first.suffix].slice(0, -1);
    const held = sequence.compareContextTokens(firstHead).firstDifferentIndex;
    const keepFirstQuestion = options.reusePrefix && held === firstHead.length;
    const state = keepFirstQuestion
      ? { reusedTokens: statePrefix.length, prefillSeconds: 0 }
      : await scoreBranches(sequence, statePrefix, [], { reusePrefix: options.reusePrefix });
    let prefillSeconds = state.prefillSeconds;
    let labelsSeconds = 0;
    const answers: Record<string, SystemOneAnswer> = {};
    for (const planned of plan.questions) {
      const perOrder: number[][] = [];
      for (const prompt of planned.prompts) {
        const scored = await scoreCodes(sequence, [...prompt.prefix, ...prompt.suffix], prompt.codes, {
          temperature: options.temperature,
          reusePrefix: true,
        });
        prefillSeconds += scored.prefillSeconds;
        labelsSeconds += scored.branchSeconds;
        perOrder.push(scored.probabilities);
      }
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
        prefix_reused: state.reusedTokens === statePrefix.length,
        prefill_seconds: prefillSeconds,
        labels_seconds: labelsSeconds,
        permutations: Math.max(...plan.questions.map((q) => q.offsets.length)),
        total_seconds: (performance.now() - started) / 1000,
      },
    };
  }
}

import { randomUUID } from "node:crypto";
import {
  contentText,
  questionLabels,
  questionText,
  type SystemOneRequest,
  type SystemOneResponse,
  systemOneAnswer,
} from "../contract/systemone.ts";
import type { Engine } from "./engine.ts";
import { type ScoringRequest, type ScoringResult, SystemOneEngine, type SystemOnePlan } from "./systemone.ts";
import { servedModelId } from "./systemone-models.ts";

const engines = new WeakMap<Engine, SystemOneEngine>();

/** The question scorer of a started adapter engine, created on first use on its model, template and limits. */
export function systemOneFor(engine: Engine): SystemOneEngine {
  let systemOne = engines.get(engine);
  if (!systemOne) {
    systemOne = new SystemOneEngine(
      engine.loaded.model,
      engine.prompts.template,
      {
        maxTokens: Math.min(engine.config.maxTokens, engine.loaded.contextSize),
        maxRequestTokens: engine.config.maxRequestTokens,
        maxQuestions: engine.config.maxQuestions,
      },
      engine.config.permutations,
    );
    engines.set(engine, systemOne);
  }
  return systemOne;
}

export type ScoredRequest = { plan: SystemOnePlan; result: ScoringResult | null; queueSeconds: number };

/**
 * The one scoring path of every decision protocol: prompts are planned and budgets checked first, then the leased
 * sequence (and the idle ones it borrows) scores every question after the shared state prefix, which is kept from
 * an earlier request of the same cache partition (`prompt_cache_key`; null: none) when a sequence holds it.
 * Without `promptCache` the request reads and leaves nothing reusable: no cached readings, and a partition of its
 * own, so no request finds the state it evaluated. `result` is null when every question was refused.
 */
export async function scoreQuestions(
  engine: Engine,
  request: ScoringRequest,
  options: { refuseTooLong?: boolean; cachePartition?: string | null; promptCache?: boolean } = {},
): Promise<ScoredRequest> {
  const promptCache = options.promptCache ?? true;
  const partition = promptCache ? (options.cachePartition ?? null) : `uncached ${randomUUID()}`;
  const scorer = systemOneFor(engine);
  const plan = scorer.plan(request, options);
  if (plan.questions.length === 0) return { plan, result: null, queueSeconds: 0 };
  const first = plan.questions[0]!.prompts[0]!;
  let queueSeconds = 0;
  const queued = performance.now();
  const result = await engine.pool.lease(
    first.tokens,
    (lease) => {
      queueSeconds = (performance.now() - queued) / 1000;
      return scorer.answer(lease, plan, {
        temperature: engine.config.temperature,
        reusePrefix: true,
        cache: promptCache ? engine.decisions.cache : null,
      });
    },
    partition,
  );
  return { plan, result, queueSeconds };
}

/** A System One request as the scorer reads it: the state and each question's text and labels, in request order. */
export function systemOneScoring(request: SystemOneRequest): ScoringRequest {
  return {
    state: contentText(request.state),
    questions: Object.entries(request.questions).map(([id, question]) => ({
      id,
      instructions: questionText(question),
      labels: questionLabels(question),
    })),
    permutations: request.x_permutations,
  };
}

/** System One answers keyed by question name, from a scoring result of `systemOneScoring(request)`. */
export function systemOneAnswers(request: SystemOneRequest, result: ScoringResult): SystemOneResponse["answers"] {
  return Object.fromEntries(
    Object.entries(request.questions).map(([id, question]) => {
      const { probabilities, spread } = result.scored.get(id)!;
      return [id, systemOneAnswer(question, probabilities, spread)];
    }),
  );
}

export async function answerSystemOne(engine: Engine, request: SystemOneRequest): Promise<SystemOneResponse> {
  const started = performance.now();
  const { result, queueSeconds } = await scoreQuestions(engine, systemOneScoring(request));
  const answered = result!;
  return {
    model: servedModelId(engine.metadata),
    answers: systemOneAnswers(request, answered),
    usage: { input_tokens: answered.inputTokens, output_tokens: 0 },
    x_latency_ms: Math.round((performance.now() - started) * 1000) / 1000,
    x_timing: { ...answered.timing, queue_seconds: queueSeconds },
  };
}

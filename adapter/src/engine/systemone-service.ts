import type { SystemOneRequest, SystemOneResponse } from "../contract/systemone.ts";
import type { Engine } from "./engine.ts";
import { SystemOneEngine } from "./systemone.ts";
import { servedModelId } from "./systemone-models.ts";

const engines = new WeakMap<Engine, SystemOneEngine>();

/** The systemone engine of a started adapter engine, created on first use on its model, template and limits. */
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

/**
 * Answers one validated request: prompts are planned and budgets checked first, then the leased sequence (and
 * the idle ones it borrows) scores every question after the shared state prefix, which is kept from an earlier
 * request when a sequence holds it.
 */
export async function answerSystemOne(engine: Engine, request: SystemOneRequest): Promise<SystemOneResponse> {
  const started = performance.now();
  const systemOne = systemOneFor(engine);
  const plan = systemOne.plan(request);
  const first = plan.questions[0]!.prompts[0]!;
  let queueSeconds = 0;
  const queued = performance.now();
  const answered = await engine.pool.lease(first.tokens, (lease) => {
    queueSeconds = (performance.now() - queued) / 1000;
    return systemOne.answer(lease, plan, {
      temperature: engine.config.temperature,
      reusePrefix: true,
      cache: engine.decisions.cache,
    });
  });
  return {
    model: servedModelId(engine.metadata),
    ...answered,
    latency_ms: Math.round((performance.now() - started) * 1000) / 1000,
    timing: answered.timing && { ...answered.timing, queue_seconds: queueSeconds },
  };
}

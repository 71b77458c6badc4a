import {
  type DecisionAnswer,
  type DecisionCreate,
  decisionAnswer,
  decisionInputText,
  decisionQuestionLabels,
  decisionQuestionText,
  type OpenAiDecision,
  usesPromptCache,
} from "../contract/openai-decisions.ts";
import type { Engine } from "./engine.ts";
import { servedModelId } from "./systemone-models.ts";
import { scoreQuestions } from "./systemone-service.ts";

/**
 * Answers an OpenAI Decisions request on the one scoring path (`scoreQuestions`): the input is the shared state,
 * each question one branch after it. A question whose prompt alone exceeds the per-question limit is answered
 * with a refusal, the others as usual; `cached_tokens` counts the state prefix found already evaluated.
 * `prompt_cache_key` partitions that reuse, as OpenAI documents it: only requests with the same key (or all
 * without one) share evaluated state and cached readings; `prompt_cache_options.mode: "explicit"` without a
 * `prompt_cache_breakpoint` uses no prompt caching at all, as documented.
 */
export async function answerDecisions(engine: Engine, request: DecisionCreate): Promise<OpenAiDecision> {
  const { plan, result, queueSeconds } = await scoreQuestions(
    engine,
    {
      state: decisionInputText(request.input),
      questions: request.questions.map((question, index) => ({
        id: String(index),
        instructions: decisionQuestionText(question),
        labels: decisionQuestionLabels(question),
      })),
    },
    { refuseTooLong: true, cachePartition: request.prompt_cache_key ?? null, promptCache: usesPromptCache(request) },
  );
  const refused = new Set(plan.refused);
  const answers = request.questions.map((question, index): DecisionAnswer => {
    const scored = result?.scored.get(String(index));
    if (refused.has(String(index)) || !scored) return { type: "refusal", name: question.name ?? null };
    return decisionAnswer(question, scored.probabilities);
  });
  const inputTokens = result?.inputTokens ?? 0;
  return {
    answers,
    model: servedModelId(engine.metadata),
    usage: {
      input_tokens: inputTokens,
      input_tokens_details: { cache_write_tokens: 0, cached_tokens: result?.cachedTokens ?? 0 },
      output_tokens: 0,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: inputTokens,
    },
    x_timing: result ? { ...result.timing, queue_seconds: queueSeconds } : null,
  };
}

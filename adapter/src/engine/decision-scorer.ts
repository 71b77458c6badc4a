import type { ModelMetadata, Timing } from "../contract/common.ts";
import type { Decision, DecisionResult, SharedDecisionResponse, SingleDecisionResponse } from "../contract/decision.ts";
import type { CachedBranch } from "./branch-scoring.ts";
import { sharedPrefix } from "./canonical-prompt.ts";
import { readDecisionLabels, scoredLength } from "./decision-labels.ts";
import { type DecisionPrompt, type DecisionPromptBuilder, PROMPT_VERSION } from "./prompt.ts";
import type { ReadingCache } from "./reading-cache.ts";
import { RequestError } from "./request-error.ts";
import { reuseTiming } from "./reuse-timing.ts";
import type { SequencePool } from "./sequence-pool.ts";

export type DecisionLimits = {
  maxTokens: number;
  maxRequestTokens: number;
  contextSize: number;
  temperature: number;
};

/**
 * Scores decisions from the final-position distribution over the answer letters (up to 26 options), or from the
 * summed log-probabilities of two-letter codes (more). A single decision is a shared request of one, so both
 * paths evaluate exactly the same token sequences in the same way.
 */
export class DecisionScorer {
  constructor(
    private readonly prompts: DecisionPromptBuilder,
    private readonly pool: SequencePool,
    private readonly limits: DecisionLimits,
    private readonly model: ModelMetadata,
    readonly cache: ReadingCache<CachedBranch> | null,
  ) {}

  /** Prompts are built and budgets checked before any evaluation; over-long prompts are refused, never cut. */
  prepare(
    decisions: readonly Decision[],
    mode: "single" | "shared",
  ): { prompts: DecisionPrompt[]; perDecision: number } {
    const { maxTokens, maxRequestTokens, contextSize } = this.limits;
    if (decisions.length > maxRequestTokens) throw new RequestError("decisions exceeds the request token budget");
    const perDecision = Math.min(maxTokens, contextSize, Math.floor(maxRequestTokens / decisions.length));
    const prompts = decisions.map((decision) => this.prompts.build(decision));
    for (const [index, prompt] of prompts.entries()) {
      const length = scoredLength(prompt);
      if (length <= perDecision) continue;
      const where = mode === "single" ? "the decision" : `decisions[${index}]`;
      throw new RequestError(
        `decisions exceeds the request token budget: ${where} has ${length} prompt tokens, at most ${perDecision} ` +
          "are allowed (prompts are never truncated)",
      );
    }
    return { prompts, perDecision };
  }

  /** Every prompt (decisions, or their option orders) as a branch after their shared state prefix. */
  async read(prompts: readonly DecisionPrompt[]) {
    const prefix = sharedPrefix(prompts);
    if (prefix.length < Math.min(...prompts.map((prompt) => prompt.prefixLength))) {
      throw new Error("the state prefix differs between decisions of one shared request");
    }
    const queued = performance.now();
    let queueSeconds = 0;
    const labels = await this.pool.lease(prompts[0]!.tokens, (lease) => {
      queueSeconds = (performance.now() - queued) / 1000;
      return readDecisionLabels(lease, prefix, prompts, this.limits.temperature, {
        reusePrefix: true,
        cache: this.cache,
      });
    });
    return { ...labels, queueSeconds };
  }

  timing(
    scored: Awaited<ReturnType<DecisionScorer["read"]>>,
    batchSize: number,
    perDecision: number,
    started: number,
  ): Timing {
    const { scores } = scored;
    return {
      batch_size: batchSize,
      prefix_tokens: scores.prefixTokens,
      prefix_reused: scores.prefixReused,
      // The state prefix's own forward pass; the suffixes' passes (all decisions together where lanes allow) follow.
      prefill_seconds: scores.prefillSeconds,
      suffix_forward_seconds: scores.branchSeconds,
      max_request_tokens: this.limits.maxRequestTokens,
      max_tokens_per_decision: perDecision,
      queue_seconds: scored.queueSeconds,
      total_seconds: (performance.now() - started) / 1000,
      ...reuseTiming(scores, this.cache),
    };
  }

  async score(decisions: readonly Decision[], mode: "single"): Promise<SingleDecisionResponse>;
  async score(decisions: readonly Decision[], mode: "shared"): Promise<SharedDecisionResponse>;
  async score(
    decisions: readonly Decision[],
    mode: "single" | "shared",
  ): Promise<SingleDecisionResponse | SharedDecisionResponse> {
    const started = performance.now();
    const { prompts, perDecision } = this.prepare(decisions, mode);
    const scored = await this.read(prompts);
    const results = decisions.map((decision, index): DecisionResult => {
      const prompt = prompts[index]!;
      const reading = scored.readings[index]!;
      return {
        id: decision.id,
        option_ids: decision.options.map((option) => option.id),
        probabilities: reading.probabilities,
        option_logits: reading.logits,
        answer_token_ids: prompt.letterTokens,
        ...(prompt.codeTokens ? { answer_code_token_ids: prompt.codeTokens } : {}),
        allowed_token_mass: reading.mass,
        full_vocab_argmax_id: reading.argmaxToken,
        input_tokens: prompt.tokens.length,
        prompt_sha256: prompt.sha256,
        prompt_version: PROMPT_VERSION,
        temperature: this.limits.temperature,
        forward_seconds: reading.seconds,
        model: this.model,
      };
    });
    const timing = this.timing(scored, decisions.length, perDecision, started);
    return mode === "single" ? { result: results[0]!, timing } : { results, timing };
  }
}

import type { ModelMetadata } from "../contract/common.ts";
import type { CachedBranch } from "./branch-scoring.ts";
import type { AdapterConfig } from "./config.ts";
import { DecisionScorer } from "./decision-scorer.ts";
import { type LoadedModel, loadModel } from "./load.ts";
import { chooseTemplate, DecisionPromptBuilder } from "./prompt.ts";
import { ReadingCache } from "./reading-cache.ts";
import { reservedTokenTexts } from "./reserved-tokens.ts";
import { assertSequenceCopyAvailable } from "./sequence-copy.ts";
import { SequencePool } from "./sequence-pool.ts";

/** Everything the HTTP layer and the scoring routes need, created once per process. */
export type Engine = {
  loaded: LoadedModel;
  config: AdapterConfig;
  metadata: ModelMetadata;
  /** Texts that no request string (key or value) may contain. */
  reservedTokens: readonly string[];
  pool: SequencePool;
  prompts: DecisionPromptBuilder;
  decisions: DecisionScorer;
  dispose(): Promise<void>;
};

const WARM_UP_DECISION = {
  id: "warm-up",
  state: "The adapter is starting.",
  question: "Is the model ready?",
  options: [
    { id: "yes", description: "It is ready." },
    { id: "no", description: "It is not ready." },
  ],
};

/** Loads the model and runs one real decision, so /ping says 200 only when scoring works end to end. */
export async function startEngine(config: AdapterConfig): Promise<Engine> {
  const loaded = await loadModel(config);
  try {
    const template = chooseTemplate(loaded.model, config.promptTemplate);
    const metadata: ModelMetadata = { ...loaded.metadata, chat_template: template.kind };
    const prompts = new DecisionPromptBuilder(loaded.model, template);
    const pool = new SequencePool(loaded.context, config.parallel, config.branchSchedule);
    const cache = new ReadingCache<CachedBranch>(config.readingCacheEntries, {
      modelSha256: loaded.file.sha256,
      temperature: config.temperature,
    });
    const decisions = new DecisionScorer(
      prompts,
      pool,
      {
        maxTokens: config.maxTokens,
        maxRequestTokens: config.maxRequestTokens,
        contextSize: loaded.contextSize,
        temperature: config.temperature,
      },
      metadata,
      cache,
    );
    await pool.lease([], async (lease) => assertSequenceCopyAvailable(lease.sequence));
    const warmUp = await decisions.score([WARM_UP_DECISION], "single");
    if (!warmUp.result.probabilities.every(Number.isFinite))
      throw new Error("warm-up produced non-finite probabilities");
    return {
      loaded,
      config,
      metadata,
      reservedTokens: reservedTokenTexts(loaded.model),
      pool,
      prompts,
      decisions,
      dispose: () => loaded.dispose(),
    };
  } catch (error) {
    await loaded.dispose();
    throw error;
  }
}

import type { RunStatus } from "../../../contract/evaluate/evaluations.ts";
import { createDataset } from "../../../server/evaluate/datasets/dataset-store.ts";
import { createRun, finishRun, recordResult } from "../../../server/evaluate/runs/run-store.ts";
import type { Store } from "../../../server/store/store.ts";

export interface ScoredRunInput {
  endpoints: string[];
  question: string;
  options: string[];
  /** One item per answer, in order. */
  answers: readonly string[];
  /** What the first endpoint (slot 0) gave every item; the first option is its pick. */
  probabilities: number[];
  /** "running" leaves the run unfinished. */
  status?: RunStatus;
}

/** An evaluation run stored as the runner leaves it: a dataset of one question, its items scored by slot 0. */
export async function scoredRun(store: Store, input: ScoredRunInput): Promise<string> {
  const { endpoints, question, options, answers, probabilities, status = "completed" } = input;
  const dataset = await createDataset(store, {
    name: question,
    source: "upload",
    format: "jsonl",
    items: answers.map((answer, i) => ({
      decision: { id: `i${i}`, state: "s", question, options: options.map((id) => ({ id, description: id })) },
      answer,
      category: null,
      tier: null,
    })),
  });
  const run = await createRun(store, { datasetId: dataset.id, endpoints, concurrency: 1, targetAccuracy: 0.9 });
  for (const position of answers.keys()) {
    await recordResult(store, {
      runId: run.id,
      slot: 0,
      position,
      itemId: `i${position}`,
      optionIds: options,
      probabilities,
      logits: null,
      chosen: options[0] ?? null,
      latencyMs: 10,
      adapterMs: null,
      attempts: 1,
      errorKind: null,
      errorMessage: null,
      finishedAt: new Date().toISOString(),
    });
  }
  if (status !== "running") await finishRun(store, run.id, status);
  return run.id;
}

import type {
  Comparison,
  EndpointEvaluation,
  EvaluationDetail,
  EvaluationProgress,
  EvaluationSummary,
} from "../../../contract/evaluate/evaluations.ts";
import type { Db } from "../../store/database.ts";
import { datasetItems, findDataset, type StoredItem } from "../datasets/dataset-store.ts";
import { accuracy } from "../metrics/accuracy.ts";
import { evaluationMetrics } from "../metrics/summary.ts";
import { batchJobOf } from "./batch-job-store.ts";
import { compare } from "./comparison.ts";
import { etaSeconds, promptSize } from "./eta.ts";
import { outcomesOf } from "./outcomes.ts";
import {
  findRun,
  finishedItems,
  listRuns,
  progressCounts,
  type RunRow,
  runResults,
  runTargetConfigurations,
  runTargets,
} from "./run-store.ts";

function progressOf(db: Db, run: RunRow, targets: readonly string[], itemCount: number, nowMs: number) {
  const counts = progressCounts(db, run);
  const endpoints = targets.map((endpointName, slot) => ({
    slot,
    endpointName,
    done: counts.find((count) => count.slot === slot)?.done ?? 0,
    total: itemCount,
  }));
  const done = endpoints.reduce((sum, endpoint) => sum + endpoint.done, 0);
  const total = itemCount * targets.length;
  const progress: EvaluationProgress = { done, total, etaSeconds: timeLeft(db, run, targets.length, nowMs), endpoints };
  return progress;
}

/** Only a running run has a time left; its items are read only then. */
function timeLeft(db: Db, run: RunRow, targets: number, nowMs: number): number | null {
  if (run.status !== "running") return null;
  const sizes = new Map(datasetItems(db, run.dataset_id).map((item) => [item.position, promptSize(item.decision)]));
  return etaSeconds({ sizes, targets, finished: finishedItems(db, run.id), resumedAt: run.resumed_at, nowMs });
}

function batchOf(db: Db, runId: string): EvaluationSummary["batch"] {
  const job = batchJobOf(db, runId);
  if (!job) return null;
  return {
    jobName: job.job_name,
    modelName: job.model_name,
    instanceType: job.instance_type,
    instanceCount: job.instance_count,
    maxConcurrentTransforms: job.max_concurrent_transforms,
  };
}

/** Each endpoint's accuracy so far, by the same rule as its metrics (`accuracy` over the finished items). */
function accuracyOf(db: Db, run: RunRow, targets: readonly string[]): EvaluationSummary["accuracy"] {
  const items = datasetItems(db, run.dataset_id);
  const results = runResults(db, run.id);
  return targets.map((endpointName, slot) => ({ endpointName, ...accuracy(outcomesOf(items, results, slot)) }));
}

function summaryOf(db: Db, run: RunRow, nowMs: number): EvaluationSummary {
  const dataset = findDataset(db, run.dataset_id);
  const targets = runTargets(db, run.id);
  return {
    id: run.id,
    datasetId: run.dataset_id,
    datasetName: dataset?.name ?? null,
    endpoints: targets,
    status: run.status,
    concurrency: run.concurrency,
    targetAccuracy: run.target_accuracy,
    createdAt: run.created_at,
    finishedAt: run.finished_at,
    failure: run.failure,
    progress: progressOf(db, run, targets, dataset?.itemCount ?? 0, nowMs),
    accuracy: accuracyOf(db, run, targets),
    batch: batchOf(db, run.id),
  };
}

export function evaluationSummary(db: Db, runId: string, nowMs: number = Date.now()): EvaluationSummary | null {
  const run = findRun(db, runId);
  return run ? summaryOf(db, run, nowMs) : null;
}

export function evaluationSummaries(db: Db, nowMs: number = Date.now()): EvaluationSummary[] {
  return listRuns(db).map((run) => summaryOf(db, run, nowMs));
}

export interface RunData {
  run: RunRow;
  items: StoredItem[];
  results: ReturnType<typeof runResults>;
  targets: string[];
  configurations: (string | null)[];
}

export function runData(db: Db, runId: string): RunData | null {
  const run = findRun(db, runId);
  if (!run) return null;
  return {
    run,
    items: datasetItems(db, run.dataset_id),
    results: runResults(db, runId),
    targets: runTargets(db, runId),
    configurations: runTargetConfigurations(db, runId),
  };
}

export function endpointEvaluations(data: RunData): EndpointEvaluation[] {
  return data.targets.map((endpointName, slot) => {
    const outcomes = outcomesOf(data.items, data.results, slot);
    return {
      slot,
      endpointName,
      configuration: data.configurations[slot] ?? null,
      metrics: evaluationMetrics(outcomes, data.run.target_accuracy),
      adapterMsTotal: data.results
        .filter((result) => result.slot === slot)
        .reduce((sum, result) => sum + (result.adapterMs ?? 0), 0),
    };
  });
}

/** A run with its progress, every endpoint's metrics and, for two endpoints, the side-by-side comparison. */
export function evaluationDetail(db: Db, runId: string, nowMs: number = Date.now()): EvaluationDetail | null {
  const data = runData(db, runId);
  if (!data) return null;
  const results = endpointEvaluations(data);
  const sides = results.map((result) => ({
    label: result.endpointName,
    endpointName: result.endpointName,
    configuration: result.configuration,
    metrics: result.metrics,
    outcomes: outcomesOf(data.items, data.results, result.slot),
  }));
  const [a, b] = sides;
  return {
    ...summaryOf(db, data.run, nowMs),
    results,
    comparison: a && b ? compare(a, b) : null,
  };
}

/**
 * Two runs on the same dataset side by side: each run's first endpoint (a run of two endpoints already
 * carries its own comparison).
 */
export function compareEvaluations(db: Db, runId: string, otherId: string): Comparison | "not_found" | "other_dataset" {
  const left = runData(db, runId);
  const right = runData(db, otherId);
  if (!left || !right) return "not_found";
  if (left.run.dataset_id !== right.run.dataset_id) return "other_dataset";
  const side = (data: RunData) => {
    const [first] = endpointEvaluations(data);
    const endpointName = data.targets[0] ?? "";
    return {
      label: `${endpointName} (${data.run.created_at.slice(0, 16).replace("T", " ")})`,
      endpointName,
      configuration: data.configurations[0] ?? null,
      metrics: first?.metrics ?? evaluationMetrics([], data.run.target_accuracy),
      outcomes: outcomesOf(data.items, data.results, 0),
    };
  };
  return compare(side(left), side(right));
}

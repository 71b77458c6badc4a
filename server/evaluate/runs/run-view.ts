import {
  type Comparison,
  type EndpointEvaluation,
  type EvaluationDetail,
  type EvaluationProgress,
  type EvaluationSummary,
  runOutcome,
} from "../../../contract/evaluate/evaluations.ts";
import { evaluatedCostPerThousand } from "../../../contract/pricing/cost-per-decision.ts";
import { priceForInstances } from "../../../contract/pricing/prices.ts";
import type { Store } from "../../store/store.ts";
import { instancesOfConfiguration } from "../configuration-text.ts";
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

/** What a summary is computed from: the run's dataset items and its results, read once per summary. */
interface RunContents {
  items: StoredItem[];
  results: Awaited<ReturnType<typeof runResults>>;
}

async function progressOf(
  store: Store,
  run: RunRow,
  targets: readonly string[],
  itemCount: number,
  items: readonly StoredItem[],
  nowMs: number,
): Promise<EvaluationProgress> {
  const counts = await progressCounts(store, run);
  const endpoints = targets.map((endpointName, slot) => ({
    slot,
    endpointName,
    done: counts.find((count) => count.slot === slot)?.done ?? 0,
    total: itemCount,
  }));
  const done = endpoints.reduce((sum, endpoint) => sum + endpoint.done, 0);
  const total = itemCount * targets.length;
  return { done, total, etaSeconds: await timeLeft(store, run, targets.length, items, nowMs), endpoints };
}

/** Only a running run has a time left. */
async function timeLeft(
  store: Store,
  run: RunRow,
  targets: number,
  items: readonly StoredItem[],
  nowMs: number,
): Promise<number | null> {
  if (run.status !== "running") return null;
  const sizes = new Map(items.map((item) => [item.position, promptSize(item.decision)]));
  const finished = await finishedItems(store, run.id);
  return etaSeconds({ sizes, targets, finished, resumedAt: run.resumed_at, nowMs, concurrency: run.concurrency });
}

async function batchOf(store: Store, runId: string): Promise<EvaluationSummary["batch"]> {
  const job = await batchJobOf(store, runId);
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
function accuracyOf(targets: readonly string[], { items, results }: RunContents): EvaluationSummary["accuracy"] {
  return targets.map((endpointName, slot) => ({ endpointName, ...accuracy(outcomesOf(items, results, slot)) }));
}

async function summaryOf(store: Store, run: RunRow, nowMs: number, read?: RunContents): Promise<EvaluationSummary> {
  const contents = read ?? {
    items: await datasetItems(store, run.dataset_id),
    results: await runResults(store, run.id),
  };
  const dataset = await findDataset(store, run.dataset_id);
  const targets = await runTargets(store, run.id);
  const accuracy = accuracyOf(targets, contents);
  const failedItems = accuracy.reduce((sum, cell) => sum + cell.failed, 0);
  return {
    id: run.id,
    datasetId: run.dataset_id,
    datasetName: dataset?.name ?? null,
    endpoints: targets,
    status: run.status,
    outcome: runOutcome(run.status, failedItems),
    failedItems,
    concurrency: run.concurrency,
    targetAccuracy: run.target_accuracy,
    createdAt: run.created_at,
    finishedAt: run.finished_at,
    failure: run.failure,
    progress: await progressOf(store, run, targets, dataset?.itemCount ?? 0, contents.items, nowMs),
    accuracy,
    batch: await batchOf(store, run.id),
  };
}

export async function evaluationSummary(
  store: Store,
  runId: string,
  nowMs: number = Date.now(),
): Promise<EvaluationSummary | null> {
  const run = await findRun(store, runId);
  return run ? summaryOf(store, run, nowMs) : null;
}

export async function evaluationSummaries(store: Store, nowMs: number = Date.now()): Promise<EvaluationSummary[]> {
  const summaries: EvaluationSummary[] = [];
  for (const run of await listRuns(store)) summaries.push(await summaryOf(store, run, nowMs));
  return summaries;
}

export interface RunData extends RunContents {
  run: RunRow;
  targets: string[];
  configurations: (string | null)[];
}

export async function runData(store: Store, runId: string): Promise<RunData | null> {
  const run = await findRun(store, runId);
  if (!run) return null;
  return {
    run,
    items: await datasetItems(store, run.dataset_id),
    results: await runResults(store, runId),
    targets: await runTargets(store, runId),
    configurations: await runTargetConfigurations(store, runId),
  };
}

/** The instances' hourly price and the cost per 1,000 decisions at the run's measured pace. */
function costOf(configuration: string | null, meanLatencyMs: number | null, concurrency: number) {
  const instances = instancesOfConfiguration(configuration);
  const hourlyPriceUsd = instances ? priceForInstances(instances.instanceType, instances.instanceCount) : null;
  return { hourlyPriceUsd, perThousandUsd: evaluatedCostPerThousand({ hourlyPriceUsd, meanLatencyMs, concurrency }) };
}

export function endpointEvaluations(data: RunData): EndpointEvaluation[] {
  return data.targets.map((endpointName, slot) => {
    const outcomes = outcomesOf(data.items, data.results, slot);
    const metrics = evaluationMetrics(outcomes, data.run.target_accuracy);
    return {
      slot,
      endpointName,
      configuration: data.configurations[slot] ?? null,
      metrics,
      adapterMsTotal: data.results
        .filter((result) => result.slot === slot)
        .reduce((sum, result) => sum + (result.adapterMs ?? 0), 0),
      cost: costOf(data.configurations[slot] ?? null, metrics.latency.mean, data.run.concurrency),
    };
  });
}

/** A run with its progress, every endpoint's metrics and, for two endpoints, the side-by-side comparison. */
export async function evaluationDetail(
  store: Store,
  runId: string,
  nowMs: number = Date.now(),
): Promise<EvaluationDetail | null> {
  const data = await runData(store, runId);
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
    ...(await summaryOf(store, data.run, nowMs, data)),
    results,
    comparison: a && b ? compare(a, b) : null,
  };
}

/**
 * Two runs on the same dataset side by side: each run's first endpoint (a run of two endpoints already
 * carries its own comparison).
 */
export async function compareEvaluations(
  store: Store,
  runId: string,
  otherId: string,
): Promise<Comparison | "not_found" | "other_dataset"> {
  const left = await runData(store, runId);
  const right = await runData(store, otherId);
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

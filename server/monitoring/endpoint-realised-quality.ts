import { DEFAULT_DECISION_THRESHOLD } from "../../contract/endpoints/monitoring.ts";
import {
  MIN_LABELS_FOR_ALARM,
  type RealisedKind,
  type RealisedQuality,
  type RealisedQuery,
  type RealisedWindow,
  realisedWindows,
} from "../../contract/endpoints/realised-quality.ts";
import { loadEndpointResources } from "../endpoints/resources.ts";
import { AppError } from "../http/app-error.ts";
import { storedThreshold } from "./endpoint-threshold.ts";
import { comparedRuns, firstEvaluationPromise } from "./evaluation-promise.ts";
import type { GroundTruthDeps } from "./ground-truth.ts";
import { newestLabels } from "./ground-truth-store.ts";
import { labelTallies } from "./label-tallies.ts";
import { decisionKinds, rollupsBetween } from "./monitoring-store.ts";
import { productionRecalibration, RECALIBRATION_MAX_LABELS, servedTemperature } from "./production-recalibration.ts";
import { realisedKind } from "./realised-quality.ts";

/** [fromMs, toMs) ending at the end of the interval `now` is in. */
export function realisedBounds(window: RealisedWindow, now: Date) {
  const { seconds, intervalSeconds } = realisedWindows[window];
  const intervalMs = intervalSeconds * 1000;
  const toMs = (Math.floor(now.getTime() / intervalMs) + 1) * intervalMs;
  return { fromMs: toMs - seconds * 1000, toMs, intervalMs };
}

/** What realised quality needs of an endpoint as SageMaker describes it. */
export interface ServedEndpoint {
  name: string;
  variants: ReadonlySet<string>;
  temperature: number;
  /** The registry version its model serves, or null for a model made from an image and model data. */
  versionArn: string | null;
}

/**
 * The endpoint's own spelling of its name, its production variants (a shadow's decisions are not its own) and the
 * temperature its model scores at.
 */
async function servingOf(deps: GroundTruthDeps, askedName: string): Promise<ServedEndpoint> {
  const { endpoint, model } = await loadEndpointResources(deps.sageMaker, askedName);
  const variants = (endpoint.ProductionVariants ?? []).map((variant) => variant.VariantName ?? "");
  return {
    name: endpoint.EndpointName ?? askedName,
    variants: new Set(variants),
    temperature: servedTemperature(model),
    versionArn: (model?.PrimaryContainer ?? model?.Containers?.[0])?.ModelPackageName ?? null,
  };
}

/**
 * Realised quality per decision kind over a window: the production decisions captured, those labelled since, and
 * the figures their labels give, beside what the evaluation the endpoint was deployed, promoted or updated with (or
 * an operator chose) measured, else the one the kind's drift baseline was set from.
 */
export async function endpointRealisedQuality(
  deps: GroundTruthDeps,
  askedName: string,
  query: RealisedQuery,
  now = new Date(),
): Promise<RealisedQuality> {
  if (!deps.artifactBucket) {
    throw new AppError(
      "bad_request",
      "Realised quality joins labels with captured decisions read from the artifact bucket; set CONSOLE_ARTIFACT_BUCKET for the console.",
    );
  }
  return await realisedQualityOf(deps, await servingOf(deps, askedName), query, now);
}

/** Realised quality of an endpoint as `servingOf` describes it, from the store alone. */
export async function realisedQualityOf(
  deps: Pick<GroundTruthDeps, "store">,
  production: ServedEndpoint,
  query: RealisedQuery,
  now = new Date(),
): Promise<RealisedQuality> {
  const endpointName = production.name;
  const window = realisedBounds(query.window, now);
  const threshold =
    query.threshold ?? (await storedThreshold(deps.store, endpointName))?.threshold ?? DEFAULT_DECISION_THRESHOLD;
  const kinds = await decisionKinds(deps.store, endpointName);
  const rollups = await rollupsBetween(
    deps.store,
    endpointName,
    window.fromMs / 60_000,
    window.toMs / 60_000,
    undefined,
  );
  const counts = new Map<string, Map<number, number>>();
  for (const rollup of rollups) {
    if (!production.variants.has(rollup.variant)) continue;
    const ms = rollup.minute * 60_000;
    const from = window.fromMs + Math.floor((ms - window.fromMs) / window.intervalMs) * window.intervalMs;
    const ofKind = counts.get(rollup.kind) ?? new Map<number, number>();
    ofKind.set(from, (ofKind.get(from) ?? 0) + rollup.decisions);
    counts.set(rollup.kind, ofKind);
  }
  const variants = [...production.variants];
  const tallies = await labelTallies(deps.store, endpointName, variants, window, threshold);
  const runsOf = await comparedRuns(deps.store, endpointName, production.versionArn);
  const figures: RealisedKind[] = [];
  for (const kind of new Set([...counts.keys(), ...tallies.keys()])) {
    const known = kinds.get(kind);
    if (!known) continue;
    figures.push(
      realisedKind({
        kind,
        question: known.question,
        options: known.options,
        tallies: tallies.get(kind),
        decisionsPerInterval: counts.get(kind) ?? new Map(),
        window,
        evaluation: await firstEvaluationPromise(deps.store, endpointName, kind, runsOf(kind), threshold),
      }),
    );
  }
  figures.sort((a, b) => b.labelled - a.labelled || b.decisions - a.decisions || (a.kind < b.kind ? -1 : 1));
  return {
    endpointName,
    from: new Date(window.fromMs).toISOString(),
    to: new Date(window.toMs).toISOString(),
    intervalSeconds: window.intervalMs / 1000,
    threshold,
    minLabelsForAlarm: MIN_LABELS_FOR_ALARM,
    kinds: figures,
    recalibration: productionRecalibration(
      await newestLabels(deps.store, endpointName, variants, window, RECALIBRATION_MAX_LABELS),
      (kind) => kinds.get(kind)?.options,
      production.temperature,
    ),
  };
}

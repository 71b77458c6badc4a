import type { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import type { S3Client } from "@aws-sdk/client-s3";
import { DescribeEndpointCommand, type SageMakerClient } from "@aws-sdk/client-sagemaker";
import {
  DEFAULT_DECISION_THRESHOLD,
  KINDS_PER_PAGE,
  type MonitoringQuery,
  type MonitoringResponse,
} from "../../contract/endpoints/monitoring.ts";
import { awsCall } from "../aws/errors.ts";
import { AppError } from "../http/app-error.ts";
import type { Store } from "../store/store.ts";
import { captureProgress } from "./capture-progress.ts";
import { captureFolderOf } from "./capture-reader.ts";
import { dataSpan, spanWindow } from "./data-span.ts";
import { storedThreshold } from "./endpoint-threshold.ts";
import { pageOfKinds } from "./kind-page.ts";
import { captureTotals, decisionKinds, rollupsBetween, variantDecisions } from "./monitoring-store.ts";
import { summarizeRollups, windowBounds } from "./monitoring-summary.ts";
import { withLabelledAccuracy } from "./review-queue.ts";
import { shadowCalls } from "./shadow-calls.ts";
import { compareShadow } from "./shadow-comparison.ts";
import { evaluationRollups, taggedDecisions, trafficSources } from "./traffic-sources.ts";

export interface MonitoringDeps {
  s3: S3Client;
  sageMaker: SageMakerClient;
  cloudWatch: CloudWatchClient;
  store: Store;
  artifactBucket: string | null;
}

/**
 * The endpoint as SageMaker keeps it, or null when it is gone (its captures still show): its own spelling of the
 * name (names ignore case: server/endpoints/endpoint-name.ts), and its production and shadow variant when it runs a
 * shadow test.
 */
async function endpointNow(sageMaker: SageMakerClient, endpointName: string) {
  try {
    const endpoint = await awsCall(`endpoint "${endpointName}"`, () =>
      sageMaker.send(new DescribeEndpointCommand({ EndpointName: endpointName })),
    );
    const production = endpoint.ProductionVariants?.[0]?.VariantName;
    const shadow = endpoint.ShadowProductionVariants?.[0]?.VariantName;
    return { name: endpoint.EndpointName ?? endpointName, test: production && shadow ? { production, shadow } : null };
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return null;
    throw error;
  }
}

/**
 * An endpoint's Monitoring view, from the store's rollups at once: the background reader (capture-reading.ts) reads
 * new capture objects into the store, and the view says how far it has got.
 */
export async function endpointMonitoring(
  deps: MonitoringDeps,
  askedName: string,
  query: MonitoringQuery,
  now = new Date(),
): Promise<MonitoringResponse> {
  if (!deps.artifactBucket) {
    throw new AppError(
      "bad_request",
      "Monitoring reads captured invocations from the artifact bucket; set CONSOLE_ARTIFACT_BUCKET for the console.",
    );
  }
  const endpoint = await endpointNow(deps.sageMaker, askedName);
  const endpointName = endpoint?.name ?? askedName;
  const progress = await captureProgress(deps.store, endpointName);
  const kinds = await decisionKinds(deps.store, endpointName);
  const { includeEvaluation } = query;
  const span = await dataSpan(deps.store, endpointName, now, includeEvaluation);
  const window = query.window ?? spanWindow(span, now);
  const bounds = windowBounds(window, now);
  const [fromMs, toMs] = [bounds.fromMinute * 60_000, bounds.toMinute * 60_000];
  const captured = { endpointName, fromMs, toMs, variant: query.variant };
  const rollups = await rollupsBetween(deps.store, endpointName, bounds.fromMinute, bounds.toMinute, query.variant);
  if (includeEvaluation) rollups.push(...(await evaluationRollups(deps.store, captured)));
  const stored = await storedThreshold(deps.store, endpointName);
  const threshold = query.threshold ?? stored?.threshold ?? DEFAULT_DECISION_THRESHOLD;
  const summary = summarizeRollups(rollups, kinds, bounds, threshold);
  const tagged = await taggedDecisions(deps.store, captured, includeEvaluation);
  const windowTagged = { gateway: 0, evaluation: 0 };
  for (const count of tagged.values()) {
    windowTagged.gateway += count.gateway;
    windowTagged.evaluation += count.evaluation;
  }
  const test = endpoint?.test ?? null;
  const shadow = test
    ? {
        ...compareShadow(
          test,
          await variantDecisions(deps.store, endpointName, test.production, fromMs, toMs),
          await variantDecisions(deps.store, endpointName, test.shadow, fromMs, toMs),
          (kind) => kinds.get(kind)?.options,
        ),
        calls: await shadowCalls(deps.cloudWatch, endpointName, test.shadow, fromMs, toMs),
      }
    : null;
  const totals = await captureTotals(deps.store, endpointName);
  const page = pageOfKinds(summary.kinds, { search: query.kindSearch, page: query.kindPage }, KINDS_PER_PAGE);
  const minuteText = (minute: number) => new Date(minute * 60_000).toISOString();
  const sourced = page.kinds.map((kind) => ({
    ...kind,
    sources: trafficSources(kind.decisions, tagged.get(kind.kind), includeEvaluation),
  }));
  return {
    endpointName,
    window,
    windowChosenBy: query.window ? "query" : "data-span",
    dataSpan: span && { from: minuteText(span.fromMinute), to: minuteText(span.toMinute) },
    includeEvaluation,
    from: new Date(bounds.fromMinute * 60_000).toISOString(),
    to: new Date(bounds.toMinute * 60_000).toISOString(),
    intervalSeconds: bounds.intervalMinutes * 60,
    threshold,
    storedThreshold: stored && { threshold: stored.threshold, setBy: stored.setBy, setAt: stored.setAt },
    variant: query.variant ?? null,
    source: {
      destination: `s3://${deps.artifactBucket}/${captureFolderOf(endpointName)}`,
      objectsRead: totals.objects,
      newObjects: progress?.objectsLastLook ?? 0,
      moreToRead: (progress?.unreadObjects ?? 0) > 0,
      unreadableRecords: totals.unreadable,
      reading: { unreadObjects: progress?.unreadObjects ?? null, lookedAt: progress?.lookedAt ?? null },
    },
    ...summary,
    sources: trafficSources(summary.decisions, windowTagged, includeEvaluation),
    kinds: await withLabelledAccuracy(deps.store, endpointName, sourced, fromMs, toMs),
    kindPage: page.kindPage,
    shadow,
  };
}

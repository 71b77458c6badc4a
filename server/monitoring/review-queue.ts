import type { S3Client } from "@aws-sdk/client-s3";
import { DescribeEndpointCommand, type SageMakerClient } from "@aws-sdk/client-sagemaker";
import { type Decision, renderState } from "@decision-console/adapter/contract";
import type { DecisionKindSummary } from "../../contract/endpoints/monitoring.ts";
import {
  type ExportReviewResult,
  type LabelDecisionRequest,
  MAX_REVIEW_STATE_CHARS,
  type ReviewItem,
  type ReviewLabel,
  type ReviewQuery,
  type ReviewQueue,
} from "../../contract/endpoints/review.ts";
import { awsCall } from "../aws/errors.ts";
import { createDataset } from "../evaluate/datasets/dataset-store.ts";
import type { LabelledDecision } from "../evaluate/datasets/labelled-decision.ts";
import { AppError } from "../http/app-error.ts";
import type { Store } from "../store/store.ts";
import { readNewCaptures } from "./capture-reader.ts";
import { capturedRequests } from "./captured-request.ts";
import { forgetReviewLabel, inferenceIdOf, storeDecisionLabels } from "./ground-truth-store.ts";
import { decisionKinds, forgetOldDecisions } from "./monitoring-store.ts";
import { labelledAccuracy } from "./monitoring-summary.ts";
import {
  capturedDecision,
  countUnlabelled,
  decisionKey,
  givenLabels,
  type KeyedDecision,
  keyedDecisions,
  labelCounts,
  labelledSince,
  recentLabels,
  storeLabel,
  unlabelledDecisions,
} from "./review-store.ts";
import { pairDecisions } from "./shadow-comparison.ts";

export interface ReviewDeps {
  s3: S3Client;
  sageMaker: SageMakerClient;
  store: Store;
  artifactBucket: string | null;
}

const RECENT_LABELS = 20;
/** "shadow-disagrees" pairs the last day's decisions (all of them are read into memory to pair them in order). */
const SHADOW_PAIRING_MS = 24 * 3_600_000;
const PARALLEL_READS = 8;
/**
 * A decision whose capture object is gone or no longer holds it (deleted, rewritten) is left out and counted; the
 * queue reads up to this many more decisions than asked for to fill its page.
 */
const UNREADABLE_LOOKAHEAD = 50;

function bucketOf(deps: ReviewDeps): string {
  if (!deps.artifactBucket) {
    throw new AppError(
      "bad_request",
      "The review queue reads captured invocations from the artifact bucket; set CONSOLE_ARTIFACT_BUCKET for the console.",
    );
  }
  return deps.artifactBucket;
}

/** The endpoint's production variants (what is reviewed) and every other variant captured (its shadows). */
async function variantsOf(deps: ReviewDeps, endpointName: string) {
  const endpoint = await awsCall(`endpoint "${endpointName}"`, () =>
    deps.sageMaker.send(new DescribeEndpointCommand({ EndpointName: endpointName })),
  );
  const production = (endpoint.ProductionVariants ?? []).flatMap((variant) =>
    variant.VariantName ? [variant.VariantName] : [],
  );
  const captured = await deps.store
    .selectFrom("captured_decisions")
    .select("variant")
    .distinct()
    .where("endpoint_name", "=", endpointName)
    .execute();
  const shadow = captured.map((row) => row.variant).filter((variant) => !production.includes(variant));
  return { production, shadow };
}

/** Unlabelled production decisions whose shadow answer (paired as the Monitoring view pairs) chose another option. */
export function shadowDisagreements(
  production: readonly KeyedDecision[],
  shadow: readonly KeyedDecision[],
  labelled: (decision: KeyedDecision) => boolean,
  kind: string | undefined,
): { decision: KeyedDecision; shadowChosen: string }[] {
  return pairDecisions(production, shadow)
    .map((pair) => ({ decision: pair.production as KeyedDecision, shadowChosen: pair.shadow.chosen }))
    .filter(
      ({ decision, shadowChosen }) =>
        shadowChosen !== decision.chosen && (kind === undefined || decision.kind === kind) && !labelled(decision),
    )
    .sort((a, b) => a.decision.topProbability - b.decision.topProbability || a.decision.atMs - b.decision.atMs);
}

/** null for a decision its capture object does not hold (any more); other failures (access, network) stand. */
function unlessNotFound(error: unknown): null {
  if (error instanceof AppError && error.code === "not_found") return null;
  throw error;
}

/** The options of a decision in the order of its probabilities (the kind's), with the descriptions it was sent. */
function reviewItem(
  decision: KeyedDecision,
  sent: Decision,
  kind: { question: string; options: string[] } | undefined,
  shadowChosen: string | null,
): ReviewItem {
  const ids = kind?.options ?? sent.options.map((option) => option.id);
  const state = renderState(sent.state);
  return {
    objectKey: decision.objectKey,
    line: decision.line,
    item: decision.item,
    variant: decision.variant,
    at: new Date(decision.atMs).toISOString(),
    kind: decision.kind,
    decisionId: sent.id,
    question: kind?.question ?? sent.question,
    options: ids.map((id) => ({ id, description: sent.options.find((option) => option.id === id)?.description ?? "" })),
    probabilities: decision.probabilities,
    chosen: decision.chosen,
    topProbability: decision.topProbability,
    state: state.slice(0, MAX_REVIEW_STATE_CHARS),
    stateTruncated: state.length > MAX_REVIEW_STATE_CHARS,
    shadowChosen,
  };
}

/**
 * The unlabelled production decisions to label next, with their state read back from the capture objects: lowest
 * confidence first, in random order, or those the shadow decided otherwise (lowest confidence first). New capture
 * objects are read first, as the Monitoring view reads them.
 */
export async function reviewQueue(deps: ReviewDeps, endpointName: string, query: ReviewQuery): Promise<ReviewQueue> {
  const bucket = bucketOf(deps);
  await readNewCaptures(deps.s3, deps.store, bucket, endpointName);
  await forgetOldDecisions(deps.store, endpointName, new Date());
  const variants = await variantsOf(deps, endpointName);
  const kinds = await decisionKinds(deps.store, endpointName);
  const { includeEvaluation } = query;
  let chosen: { decision: KeyedDecision; shadowChosen: string | null }[];
  let unlabelled: number;
  if (query.order === "shadow-disagrees") {
    const fromMs = Date.now() - SHADOW_PAIRING_MS;
    const labelled = await labelledSince(deps.store, endpointName, fromMs);
    const disagreements = shadowDisagreements(
      await keyedDecisions(deps.store, endpointName, { variants: variants.production, includeEvaluation }, fromMs),
      await keyedDecisions(deps.store, endpointName, { variants: variants.shadow, includeEvaluation }, fromMs),
      (decision) => labelled.has(decisionKey(decision)),
      query.kind,
    );
    unlabelled = disagreements.length;
    chosen = disagreements.slice(0, query.limit + UNREADABLE_LOOKAHEAD);
  } else {
    const limit = query.limit + UNREADABLE_LOOKAHEAD;
    const scope = { variants: variants.production, kind: query.kind, includeEvaluation };
    const decisions = await unlabelledDecisions(deps.store, endpointName, { ...scope, order: query.order, limit });
    chosen = decisions.map((decision) => ({ decision, shadowChosen: null }));
    unlabelled = await countUnlabelled(deps.store, endpointName, scope);
  }
  const requests = capturedRequests(deps.s3, bucket);
  const items: ReviewItem[] = [];
  let unreadable = 0;
  for (let start = 0; start < chosen.length && items.length < query.limit; start += PARALLEL_READS) {
    const slice = chosen.slice(start, start + PARALLEL_READS);
    const sent = await Promise.all(
      slice.map(({ decision }) =>
        requests.decision(decision.objectKey, decision.line, decision.item).catch(unlessNotFound),
      ),
    );
    for (const [index, { decision, shadowChosen }] of slice.entries()) {
      if (items.length === query.limit) break;
      const request = sent[index];
      if (request) items.push(reviewItem(decision, request, kinds.get(decision.kind), shadowChosen));
      else unreadable++;
    }
  }
  const counts = await labelCounts(deps.store, endpointName);
  return {
    endpointName,
    order: query.order,
    kind: query.kind ?? null,
    unlabelled,
    items,
    unreadable,
    kinds: [...kinds.entries()]
      .map(([kind, { question, options }]) => ({
        kind,
        question,
        options,
        labelled: counts.get(kind)?.labelled ?? 0,
        skipped: counts.get(kind)?.skipped ?? 0,
      }))
      .sort((a, b) => a.question.localeCompare(b.question) || a.kind.localeCompare(b.kind)),
    recent: await recentLabels(deps.store, endpointName, RECENT_LABELS),
  };
}

/**
 * Labels one captured production decision with one of its kind's options, or skips it (one label per decision: a
 * second replaces the first). The decision as sent is copied from its capture object into the label.
 */
export async function labelDecision(
  deps: ReviewDeps,
  endpointName: string,
  request: LabelDecisionRequest,
  labelledBy: string,
): Promise<ReviewLabel> {
  const bucket = bucketOf(deps);
  const decision = await capturedDecision(deps.store, endpointName, request);
  if (!decision) {
    throw new AppError(
      "not_found",
      `Endpoint "${endpointName}" has no captured decision at ${request.objectKey} line ${request.line} item ${request.item} (single decisions are kept 7 days).`,
    );
  }
  const options = (await decisionKinds(deps.store, endpointName)).get(decision.kind)?.options ?? [];
  if (request.label !== undefined && !options.includes(request.label)) {
    throw new AppError(
      "bad_request",
      `label: "${request.label}" is not one of this decision's options (${options.join(", ")}); or skip it.`,
    );
  }
  const { production } = await variantsOf(deps, endpointName);
  if (!production.includes(decision.variant)) {
    throw new AppError(
      "bad_request",
      `The decision is the ${decision.variant} variant's; the review queue labels production decisions (${production.join(", ")}).`,
    );
  }
  const sent = await capturedRequests(deps.s3, bucket).decision(decision.objectKey, decision.line, decision.item);
  const given = await storeLabel(deps.store, endpointName, decision, sent, request.label ?? null, labelledBy);
  await joinGroundTruth(deps.store, endpointName, decision, given);
  return given;
}

/** A reviewer's label is ground truth too (skipping takes a reviewer's label back, never one learnt elsewhere). */
async function joinGroundTruth(store: Store, endpointName: string, decision: KeyedDecision, given: ReviewLabel) {
  if (given.label === null) {
    await forgetReviewLabel(store, endpointName, decision);
    return;
  }
  const target = { ...decision, inferenceId: await inferenceIdOf(store, endpointName, decision) };
  const label = { decision: target, label: given.label, labelledAtMs: Date.parse(given.labelledAt) };
  await storeDecisionLabels(store, endpointName, [{ ...label, source: `review:${given.labelledBy}` }]);
}

/**
 * The labelled (not skipped) decisions of a kind as a dataset, in the evaluation's own format: each decision as
 * sent (state, question, options) with its label as the right answer. Decision ids repeated by repeated requests
 * get `#2`, `#3`, … (dataset item ids are unique).
 */
export async function exportLabelsToDataset(
  store: Store,
  endpointName: string,
  kind: string,
  name: string,
): Promise<ExportReviewResult> {
  const labels = await givenLabels(store, endpointName, { kind });
  if (labels.length === 0) {
    throw new AppError(
      "bad_request",
      `Endpoint "${endpointName}" has no labelled decisions of kind ${kind} to export.`,
    );
  }
  const seen = new Map<string, number>();
  const items: LabelledDecision[] = labels.map((entry) => {
    const times = (seen.get(entry.decision.id) ?? 0) + 1;
    seen.set(entry.decision.id, times);
    const id = times === 1 ? entry.decision.id : `${entry.decision.id}#${times}`;
    return { decision: { ...entry.decision, id }, answer: entry.label, category: null, tier: null };
  });
  const dataset = await createDataset(store, { name, source: "upload", format: "review", items });
  return { datasetId: dataset.id, name: dataset.name, itemCount: dataset.itemCount };
}

/** Each kind's live accuracy and calibration over its decisions of [fromMs, toMs) labelled in the review queue. */
export async function withLabelledAccuracy(
  store: Store,
  endpointName: string,
  kinds: readonly DecisionKindSummary[],
  fromMs: number,
  toMs: number,
): Promise<DecisionKindSummary[]> {
  const labelled: DecisionKindSummary[] = [];
  for (const kind of kinds) {
    const labels = await givenLabels(store, endpointName, { kind: kind.kind, fromMs, toMs });
    labelled.push({
      ...kind,
      labelled: labelledAccuracy(
        labels.map((entry) => ({ optionIds: kind.options, label: entry.label, probabilities: entry.probabilities })),
      ),
    });
  }
  return labelled;
}

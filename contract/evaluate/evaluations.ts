import { z } from "zod";
import { batchInstanceTypes } from "../batch/transform-jobs.ts";
import { resourceNameSchema } from "../endpoints/endpoint.ts";
import { accuracyCellSchema, evaluationMetricsSchema } from "./metrics.ts";

export const MAX_CONCURRENCY = 16;

export const runStatusSchema = z.enum(["running", "completed", "cancelled", "failed"]);
export type RunStatus = z.infer<typeof runStatusSchema>;

/**
 * How a run ended, as its page and list show it: the stored status, except that a run which asked every item but
 * got no answer to some (busy, timeout, unreachable...) is `completed_with_failures`, never plain `completed`.
 */
export const runOutcomeSchema = z.enum(["running", "completed", "completed_with_failures", "cancelled", "failed"]);
export type RunOutcome = z.infer<typeof runOutcomeSchema>;

export function runOutcome(status: RunStatus, failedItems: number): RunOutcome {
  return status === "completed" && failedItems > 0 ? "completed_with_failures" : status;
}

/**
 * An evaluation as a Batch Transform job of a model the console deployed, instead of requests to an endpoint: the
 * dataset goes to S3 as JSON Lines, one job scores it, and its output lines are recorded as a real-time run's
 * answers are.
 */
export const batchEvaluationTargetSchema = z.strictObject({
  modelName: resourceNameSchema,
  instanceType: z.enum(batchInstanceTypes, {
    error: `must be one of ${batchInstanceTypes.join(", ")} (Batch Transform runs the cpu image only)`,
  }),
  instanceCount: z.number().int().min(1).max(20).default(1),
  /** Records in flight per instance; unset: the adapter's GET /execution-parameters (ADAPTER_PARALLEL). */
  maxConcurrentTransforms: z.number().int().min(1).max(100).optional(),
});
export type BatchEvaluationTarget = z.output<typeof batchEvaluationTargetSchema>;

/** `POST /api/evaluations`: one or two endpoints, or one model as a batch transform job. */
export const createEvaluationSchema = z
  .strictObject({
    datasetId: z.string().min(1),
    endpoints: z
      .array(resourceNameSchema)
      .max(2, "compare at most two endpoints")
      .refine((names) => new Set(names).size === names.length, "choose two different endpoints")
      .default([]),
    batch: batchEvaluationTargetSchema.optional(),
    concurrency: z.number().int().min(1).max(MAX_CONCURRENCY).default(1),
    targetAccuracy: z.number().gt(0).max(1).default(0.9),
  })
  .superRefine((request, context) => {
    if (request.endpoints.length === 0 && !request.batch) {
      context.addIssue({ code: "custom", path: ["endpoints"], message: "choose an endpoint (or a model in batch)" });
    }
    if (request.endpoints.length > 0 && request.batch) {
      context.addIssue({
        code: "custom",
        path: ["batch"],
        message: "a run evaluates endpoints or one model in a batch transform job, not both",
      });
    }
  });
export type CreateEvaluation = z.output<typeof createEvaluationSchema>;
export type CreateEvaluationInput = z.input<typeof createEvaluationSchema>;

/** `GET /api/evaluations/[id]/export?format=`. */
export const exportQuerySchema = z.object({
  format: z.enum(["csv", "json"], { error: "must be csv or json" }).default("json"),
});

/** `GET /api/evaluations/[id]?compareWith=`. */
export const evaluationQuerySchema = z.object({
  /** Another run on the same dataset to compare with instead of the run's own second endpoint. */
  compareWith: z.string().min(1).optional(),
});

export const endpointProgressSchema = z.object({
  slot: z.number().int(),
  endpointName: z.string(),
  done: z.number().int(),
  total: z.number().int(),
});

export const evaluationProgressSchema = z.object({
  done: z.number().int(),
  total: z.number().int(),
  /** Estimated seconds left from the pace since the run (re)started; null until an item has finished. */
  etaSeconds: z.number().nullable(),
  endpoints: z.array(endpointProgressSchema),
});
export type EvaluationProgress = z.infer<typeof evaluationProgressSchema>;

export const evaluationSummarySchema = z.object({
  id: z.string(),
  datasetId: z.string(),
  datasetName: z.string().nullable(),
  endpoints: z.array(z.string()),
  status: runStatusSchema,
  /** The status with failures told apart (`runOutcome`). */
  outcome: runOutcomeSchema,
  /** Items that got no answer, over every endpoint of the run: what "retry the failed items" asks again. */
  failedItems: z.number().int(),
  concurrency: z.number().int(),
  targetAccuracy: z.number(),
  createdAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
  failure: z.string().nullable(),
  progress: evaluationProgressSchema,
  /** Each endpoint's accuracy over the items it answered so far, and its failed items beside it, as the run's page has it. */
  accuracy: z.array(accuracyCellSchema.extend({ endpointName: z.string() })),
  /** The run's Batch Transform job, when it targets a model instead of endpoints (`endpoints` is that model). */
  batch: z
    .object({
      jobName: z.string(),
      modelName: z.string(),
      instanceType: z.string(),
      instanceCount: z.number().int(),
      maxConcurrentTransforms: z.number().int().nullable(),
    })
    .nullable(),
});
export type EvaluationSummary = z.infer<typeof evaluationSummarySchema>;

export const evaluationListSchema = z.object({ evaluations: z.array(evaluationSummarySchema) });
export type EvaluationList = z.infer<typeof evaluationListSchema>;

export const endpointEvaluationSchema = z.object({
  slot: z.number().int(),
  endpointName: z.string(),
  /** Instance type and threads when the run started, if the endpoint could be described. */
  configuration: z.string().nullable(),
  metrics: evaluationMetricsSchema,
  /** Sum of the adapter's own per-item time (its `timing.total_seconds`), in ms. */
  adapterMsTotal: z.number(),
  /**
   * What the endpoint's instances cost (bundled prices, `configuration`'s type and count) and, from the mean latency
   * at the run's concurrency, per 1,000 decisions (`evaluatedCostPerThousand`); null where either is unknown.
   */
  cost: z.object({ hourlyPriceUsd: z.number().nullable(), perThousandUsd: z.number().nullable() }),
});
export type EndpointEvaluation = z.infer<typeof endpointEvaluationSchema>;

/** One line of the side-by-side table, the AWS post's columns plus calibration. */
export const comparisonRowSchema = z.object({
  label: z.string(),
  endpointName: z.string(),
  configuration: z.string().nullable(),
  correct: z.number().int(),
  /** Items the side answered; accuracy is correct / answered. */
  answered: z.number().int(),
  accuracy: z.number().nullable(),
  p50Ms: z.number().nullable(),
  p95Ms: z.number().nullable(),
  brier: z.number().nullable(),
  ece: z.number().nullable(),
  /** Items that got no answer (busy, timeout, refused...), reported apart from wrong answers. */
  failed: z.number().int(),
});
export type ComparisonRow = z.infer<typeof comparisonRowSchema>;

export const disagreementSchema = z.object({
  itemId: z.string(),
  answer: z.string(),
  /** Per side: the chosen option (null when it failed) and its probability. */
  chosen: z.array(z.string().nullable()),
  confidence: z.array(z.number().nullable()),
});
export type Disagreement = z.infer<typeof disagreementSchema>;

export const comparisonSchema = z.object({
  rows: z.array(comparisonRowSchema),
  /** Items both sides finished. */
  compared: z.number().int(),
  disagreements: z.array(disagreementSchema),
});
export type Comparison = z.infer<typeof comparisonSchema>;

export const evaluationDetailSchema = evaluationSummarySchema.extend({
  results: z.array(endpointEvaluationSchema),
  /** Two endpoints in the run, or the run compared with `compareWith`: the side-by-side table. */
  comparison: comparisonSchema.nullable(),
});
export type EvaluationDetail = z.infer<typeof evaluationDetailSchema>;

/** `GET /api/evaluations/[id]`: the detail, and which run it was compared with (`?compareWith=`), if any. */
export const evaluationResponseSchema = evaluationDetailSchema.extend({ comparedWith: z.string().nullable() });
export type EvaluationResponse = z.infer<typeof evaluationResponseSchema>;

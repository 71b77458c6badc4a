import { z } from "zod";
import { resourceNameSchema } from "../endpoints/endpoint.ts";
import { instanceCountSchema } from "../endpoints/instance-count.ts";
import { transformJobNameSchema } from "./transform-job-name.ts";
import { batchInstanceTypes, MAX_TRANSFORM_PAYLOAD_MB, MAX_TRANSFORM_S3_URI_LENGTH } from "./transform-limits.ts";

export * from "./transform-limits.ts";

/**
 * Batch Transform jobs as the console runs them: JSON Lines in, one output line per input line (SplitType Line,
 * AssembleWith Line, JoinSource Input, so each output line carries its input), in both modes.
 */

export const transformJobStatuses = ["InProgress", "Completed", "Failed", "Stopping", "Stopped"] as const;
export const transformJobStatusSchema = z.enum(transformJobStatuses);
export type TransformJobStatus = z.infer<typeof transformJobStatusSchema>;

const s3Uri = z
  .string()
  .max(MAX_TRANSFORM_S3_URI_LENGTH, `must be at most ${MAX_TRANSFORM_S3_URI_LENGTH} characters (SageMaker's limit)`)
  .regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]\/.+/, "must be an s3://bucket/prefix URI");

/** A succeeded model-packaging build's output (its model artifact in S3) run by an adapter image of the console's repository. */
export const buildOutputSourceSchema = z.strictObject({
  buildId: z.string().min(1).max(255),
  /** A cpu image of the adapter repository, by digest. */
  imageDigest: z.string().regex(/^sha256:[0-9a-f]{64}$/, "must be sha256: followed by 64 lowercase hex characters"),
});
export type BuildOutputSource = z.infer<typeof buildOutputSourceSchema>;

export const oneModelSource =
  "give exactly one of modelName (a model the console deployed) or buildOutput (a build's output and an image digest)";

export const startTransformJobSchema = z
  .object({
    name: transformJobNameSchema,
    /** A SageMaker model the console deployed (an endpoint's model carries the endpoint's name). */
    modelName: resourceNameSchema.optional(),
    /** Or: the console creates a model named as the job from this build output and image, then the job on it. */
    buildOutput: buildOutputSourceSchema.optional(),
    /** A prefix (every object under it) of JSON Lines files: decision request bodies, one a line. */
    inputS3Uri: s3Uri,
    /** Where `<input file>.out` goes; defaults to `<artifact bucket>/batch/outputs/<name>/`. */
    outputS3Uri: s3Uri.optional(),
    instanceType: z.enum(batchInstanceTypes, {
      error: `must be one of ${batchInstanceTypes.join(", ")} (Batch Transform runs the cpu image only)`,
    }),
    instanceCount: instanceCountSchema.default(1),
    /** Requests in flight per instance; unset: the adapter's GET /execution-parameters (ADAPTER_PARALLEL). */
    maxConcurrentTransforms: z.number().int().min(1).max(100).optional(),
    batchStrategy: z.enum(["SingleRecord", "MultiRecord"]).default("SingleRecord"),
    /** Largest request body; unset: the adapter's announced limit. */
    maxPayloadInMB: z.number().int().min(1).max(100).optional(),
    invocationsTimeoutSeconds: z.number().int().min(1).max(3600).default(600),
  })
  .refine((request) => (request.modelName === undefined) !== (request.buildOutput === undefined), {
    message: oneModelSource,
    path: ["modelName"],
  })
  .refine(
    (request) =>
      request.maxConcurrentTransforms === undefined ||
      request.maxPayloadInMB === undefined ||
      request.maxConcurrentTransforms * request.maxPayloadInMB <= MAX_TRANSFORM_PAYLOAD_MB,
    {
      message: `requests in flight per instance times the largest request body may be at most ${MAX_TRANSFORM_PAYLOAD_MB} MB (SageMaker's limit on MaxConcurrentTransforms × MaxPayloadInMB): lower one of them`,
      path: ["maxPayloadInMB"],
    },
  );
export type StartTransformJobRequest = z.output<typeof startTransformJobSchema>;
export type StartTransformJobInput = z.input<typeof startTransformJobSchema>;

export const transformJobSummarySchema = z.object({
  name: z.string(),
  status: transformJobStatusSchema,
  createdAt: z.iso.datetime(),
  endedAt: z.iso.datetime().nullable(),
  failureReason: z.string().nullable(),
  /** Seconds from start to end (or to now while in progress). */
  durationSeconds: z.number().nullable(),
});
export type TransformJobSummary = z.infer<typeof transformJobSummarySchema>;

export const transformJobListSchema = z.object({ jobs: z.array(transformJobSummarySchema) });
export type TransformJobList = z.infer<typeof transformJobListSchema>;

export const transformOutputSchema = z.object({ s3Uri: z.string(), bytes: z.number().int() });

export const transformJobDetailSchema = transformJobSummarySchema.extend({
  modelName: z.string(),
  /** The model's image, and the model build whose output it runs when the console created it for the job; null once the model is gone. */
  model: z.object({ imageUri: z.string().nullable(), sourceBuildId: z.string().nullable() }).nullable(),
  inputS3Uri: z.string(),
  outputS3Uri: z.string(),
  instanceType: z.string(),
  instanceCount: z.number().int(),
  maxConcurrentTransforms: z.number().int().nullable(),
  batchStrategy: z.string().nullable(),
  maxPayloadInMB: z.number().int().nullable(),
  /** Input objects and the `.out` objects written so far (SageMaker writes each when its input is done). */
  inputObjects: z.number().int().nullable(),
  outputs: z.array(transformOutputSchema),
  /** Output lines written so far (one per input record), read from the outputs' sizes where they are small. */
  recordsDone: z.number().int().nullable(),
  /** Lines of the input objects (one record each), where they are small enough to count. */
  inputRecords: z.number().int().nullable(),
  /**
   * Records the containers have answered so far, counted from their request log lines in CloudWatch (SageMaker
   * reports no per-record progress and writes an input's `.out` only at its end); null when the log is too long.
   */
  recordsAnswered: z.number().int().nullable(),
  /** A failed job's first data-log lines: the input object and the container's message for a refused record. */
  dataLog: z.array(z.string()),
  /** The first records of the outputs written so far, each with its line in the input object. */
  outputPreview: z.array(
    z.object({ s3Uri: z.string(), line: z.number().int(), input: z.string(), output: z.string() }),
  ),
  costEstimateUsd: z.number().nullable(),
  /** The job's log lines (all instances), oldest first, the last 200. */
  logs: z.array(z.object({ stream: z.string(), timestamp: z.iso.datetime(), message: z.string() })),
});
export type TransformJobDetail = z.infer<typeof transformJobDetailSchema>;

export const stopTransformJobResultSchema = z.object({ name: z.string(), status: transformJobStatusSchema });

/** A stored dataset written to S3 as a job's input: one decision request body a line, in item order. */
export const datasetExportSchema = z.object({ inputS3Uri: z.string(), records: z.number().int() });
export type DatasetExport = z.infer<typeof datasetExportSchema>;

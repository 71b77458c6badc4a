import type { SemifLimit } from "@decision-console/adapter/contract";
import { z } from "zod";
import { modelVersionArnSchema } from "../models/model-version-arn.ts";
import { invocationModeSchema } from "./async-inference.ts";
import { apiModeSchema, resourceNameSchema } from "./endpoint.ts";
import { instanceCountSchema } from "./instance-count.ts";
import { instancePoolsSchema } from "./instance-pools.ts";

export const digestPinnedImagePattern = /^[a-z0-9][a-z0-9._\-/:]*@sha256:[0-9a-f]{64}$/;

/** Only an image pinned by digest is deployable: a tag can move after review, a digest cannot. */
export const imageUriSchema = z
  .string()
  .superRefine((value, ctx) => {
    if (digestPinnedImagePattern.test(value)) return;
    const message = value.includes("@sha256:")
      ? "image digest must be sha256: followed by 64 lowercase hex characters"
      : "must be pinned by digest (<repository>@sha256:<64 hex>); mutable tags such as :cpu or :latest are rejected. " +
        "Resolve the tag to its digest on the Images page";
    ctx.addIssue({ code: "custom", message });
  })
  .describe("pinned by digest: <repository>@sha256:<64 hex>");

export const s3UrlSchema = z
  .string()
  .regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/, "must be an S3 URL such as s3://bucket/path/model.tar.gz");

export const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, "must be 64 lowercase hex characters");

export const instanceTypeSchema = z
  .string()
  .regex(/^ml\.[a-z0-9-]+\.[a-z0-9]+$/, "must be a SageMaker instance type such as ml.c6i.2xlarge");

export const cpuComputeSchema = z.strictObject({
  kind: z.literal("cpu"),
  instanceType: instanceTypeSchema,
  threads: z.number().int().min(1).max(256),
});

export const gpuPoolComputeSchema = z.strictObject({
  kind: z.literal("gpu-pool"),
  /** Priority order: the first entry gets priority 1. */
  pools: instancePoolsSchema(
    z.strictObject({
      instanceType: z
        .string()
        .regex(/^ml\.[a-z0-9-]+\.[a-z0-9]+$/, "must be a SageMaker instance type such as ml.g6e.xlarge"),
    }),
    (pool) => pool.instanceType,
  ),
  provisioningTimeoutSeconds: z.number().int().min(300).max(3600).default(900),
  /** "max" offloads every layer, which the adapter's CUDA mode requires. */
  gpuLayers: z.union([z.literal("max"), z.number().int().min(0).max(1000)]).default("max"),
  threads: z.number().int().min(1).max(256).optional(),
});

const temperatureRule = "must be a number above 0 and at most 100";
/** SEMIF_TEMPERATURE: the softmax temperature of the adapter's decisions. */
export const temperatureSchema = z
  .number({ error: temperatureRule })
  .positive(temperatureRule)
  .max(100, temperatureRule);

export const computeSchema = z.discriminatedUnion("kind", [cpuComputeSchema, gpuPoolComputeSchema]);
export type Compute = z.infer<typeof computeSchema>;

/** Adapter limits (DESIGN §4); each becomes the `SEMIF_*` variable of the same meaning. */
export const adapterLimitsSchema = z.strictObject({
  maxTokens: z.number().int().min(16).max(131072).optional(),
  maxRequestTokens: z.number().int().min(16).max(1048576).optional(),
  maxSharedDecisions: z.number().int().min(1).max(256).optional(),
  maxBodyBytes: z.number().int().min(1024).max(6291456).optional(),
  maxInFlight: z.number().int().min(1).max(256).optional(),
} satisfies Record<SemifLimit, z.ZodType>);
export type AdapterLimits = z.infer<typeof adapterLimitsSchema>;

/**
 * Data capture (SageMaker's DataCaptureConfig): this share of invocations, real-time or asynchronous, is written,
 * request and answer, as JSON Lines under `data-capture/<endpoint>/<variant>/yyyy/mm/dd/hh/` of the artifact bucket.
 */
export const dataCaptureSchema = z.strictObject({
  samplingPercentage: z
    .number({ error: "must be a whole percentage from 0 to 100" })
    .int("must be a whole percentage from 0 to 100")
    .min(0, "must be a whole percentage from 0 to 100")
    .max(100, "must be a whole percentage from 0 to 100"),
  capture: z.enum(["input-and-output", "input", "output"]).default("input-and-output"),
});
export type DataCapture = z.infer<typeof dataCaptureSchema>;

/** `POST /api/endpoints` body: one model, one endpoint config, one endpoint, all named `name`. */
export const deployRequestSchema = z.strictObject({
  name: resourceNameSchema,
  apiMode: apiModeSchema.default("decision"),
  imageUri: imageUriSchema,
  modelDataUrl: s3UrlSchema,
  /**
   * An Approved Model Registry version to deploy: the model is created from it (ModelPackageName), and imageUri,
   * modelDataUrl and modelSha256 must be the version's.
   */
  modelVersionArn: modelVersionArnSchema.optional(),
  /** Gzip: a model.tar.gz object; None: an uncompressed S3 prefix (faster for multi-GB GGUFs). */
  compression: z.enum(["Gzip", "None"]).default("Gzip"),
  modelSha256: sha256Schema.optional(),
  /** The GGUF's size in bytes, as the model build reports it (MODEL_BYTES): sizes a CPU instance's storage volume. */
  modelBytes: z.number().int().positive().optional(),
  compute: computeSchema,
  instanceCount: instanceCountSchema.default(1),
  limits: adapterLimitsSchema.default({}),
  temperature: temperatureSchema.optional(),
  /** Decision requests evaluated at once inside one instance (ADAPTER_PARALLEL). */
  parallel: z.number().int().min(1).max(64).optional(),
  invocation: invocationModeSchema.default({ mode: "real-time" }),
  dataCapture: dataCaptureSchema.optional(),
  startupTimeoutSeconds: z.number().int().min(60).max(3600).default(900),
  downloadTimeoutSeconds: z.number().int().min(60).max(3600).default(900),
  /** Defaults to the console's SAGEMAKER_EXECUTION_ROLE_ARN. */
  executionRoleArn: z
    .string()
    .regex(/^arn:aws[a-z-]*:iam::\d{12}:role\/.+$/, "must be an IAM role ARN")
    .optional(),
});
export type DeployRequest = z.infer<typeof deployRequestSchema>;
export type DeployRequestInput = z.input<typeof deployRequestSchema>;

export const deployResultSchema = z.object({
  name: z.string(),
  endpointArn: z.string(),
  modelName: z.string(),
  endpointConfigName: z.string(),
  status: z.literal("Creating"),
  /** CreateEndpoint attempts, more than 1 when SageMaker had not yet seen the new model or config. */
  createAttempts: z.number().int(),
});
export type DeployResult = z.infer<typeof deployResultSchema>;

import { z } from "zod";
import { imageUriSchema } from "../endpoints/deploy.ts";
import { resourceNameSchema } from "../endpoints/endpoint.ts";

export { modelVersionArnSchema } from "./model-version-arn.ts";

/**
 * The console's view of SageMaker's Model Registry: a model package group per decision model, numbered versions of
 * it (model packages), each with what it was built from, what it was evaluated on and its approval.
 */

export const approvalStatusSchema = z.enum(["PendingManualApproval", "Approved", "Rejected"]);
export type ApprovalStatus = z.infer<typeof approvalStatusSchema>;

/** What a version records of the evaluation that justified it, and where its full report is in S3. */
export const versionEvaluationSchema = z.object({
  runId: z.string(),
  /** The endpoint (or, for a batch run, the model) the run scored, which served this version's artifact and image. */
  target: z.string(),
  datasetName: z.string(),
  /** sha256 over the dataset's items in order (`datasetSha256`), so a renamed copy is still the same set. */
  datasetSha256: z.string(),
  items: z.number().int(),
  accuracy: z.number().nullable(),
  brier: z.number().nullable(),
  ece: z.number().nullable(),
  p50Ms: z.number().nullable(),
  p95Ms: z.number().nullable(),
  errors: z.number().int(),
  /** s3:// URL of the JSON report: every metric of the run's side that served this version. */
  reportUrl: z.string(),
  attachedAt: z.iso.datetime(),
});
export type VersionEvaluation = z.infer<typeof versionEvaluationSchema>;

/** The pins the model build packaged (its HF_* and TOKENIZER_* inputs). */
export const modelPinsSchema = z.object({
  ggufRepo: z.string().nullable(),
  ggufRevision: z.string().nullable(),
  ggufFile: z.string().nullable(),
  tokenizerRepo: z.string().nullable(),
  tokenizerRevision: z.string().nullable(),
});
export type ModelPins = z.infer<typeof modelPinsSchema>;

export const modelVersionSchema = z.object({
  arn: z.string(),
  group: z.string(),
  version: z.number().int(),
  description: z.string().nullable(),
  status: approvalStatusSchema,
  /** ApprovalDescription: the note of whoever last approved or rejected it. */
  approvalNote: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime().nullable(),
  imageUri: z.string().nullable(),
  modelDataUrl: z.string().nullable(),
  compression: z.enum(["Gzip", "None"]).nullable(),
  modelSha256: z.string().nullable(),
  modelBytes: z.number().int().nullable(),
  build: z.object({
    modelBuildId: z.string().nullable(),
    imageBuildId: z.string().nullable(),
    /** The model build's source archive (`bucket/build-sources/<sha256>.zip`): the revision of the code that built it. */
    sourceRevision: z.string().nullable(),
  }),
  pins: modelPinsSchema,
  evaluation: versionEvaluationSchema.nullable(),
});
export type ModelVersion = z.infer<typeof modelVersionSchema>;

/** A version with every managed endpoint that serves it now. */
export const modelVersionDetailSchema = modelVersionSchema.extend({ endpoints: z.array(z.string()) });
export type ModelVersionDetail = z.infer<typeof modelVersionDetailSchema>;

export const modelGroupSummarySchema = z.object({
  name: z.string(),
  arn: z.string(),
  description: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type ModelGroupSummary = z.infer<typeof modelGroupSummarySchema>;

export const modelGroupListSchema = z.object({ groups: z.array(modelGroupSummarySchema) });
export type ModelGroupList = z.infer<typeof modelGroupListSchema>;

export const modelGroupDetailSchema = modelGroupSummarySchema.extend({
  /** Newest first. */
  versions: z.array(modelVersionSchema),
});
export type ModelGroupDetail = z.infer<typeof modelGroupDetailSchema>;

const buildIdSchema = z.string().min(1, "choose a build").max(255);
const descriptionSchema = z.string().trim().max(1000, "at most 1000 characters");

/**
 * `POST /api/models`: a finished model build's artifact (sha256, size, pins) and an adapter image by digest, as a new
 * version of a group (created on first use). It starts PendingManualApproval.
 */
export const registerVersionSchema = z.strictObject({
  group: resourceNameSchema,
  /** Used when the group is created. */
  groupDescription: descriptionSchema.optional(),
  modelBuildId: buildIdSchema,
  imageUri: imageUriSchema,
  /** The image build that produced the image, for the lineage (optional: an image may come from the Images list). */
  imageBuildId: buildIdSchema.optional(),
  /** An evaluation run of an endpoint or model that served this artifact and image; it becomes the ModelMetrics. */
  evaluationId: z.string().min(1).max(100).optional(),
  description: descriptionSchema.optional(),
});
export type RegisterVersion = z.infer<typeof registerVersionSchema>;
export type RegisterVersionInput = z.input<typeof registerVersionSchema>;

/** `POST /api/models/[group]/[version]/evaluation`. */
export const attachEvaluationSchema = z.strictObject({ evaluationId: z.string().min(1).max(100) });
export type AttachEvaluation = z.infer<typeof attachEvaluationSchema>;

/** `POST /api/models/[group]/[version]/approval`: an operator's decision and why. */
export const approvalRequestSchema = z.strictObject({
  status: z.enum(["Approved", "Rejected"], { error: "must be Approved or Rejected" }),
  note: z.string().trim().min(1, "say why: the note is kept with the version and in the audit log").max(1000),
});
export type ApprovalRequest = z.infer<typeof approvalRequestSchema>;

/** The path parameters of a version's routes. */
export const versionParamsSchema = z.object({
  group: resourceNameSchema,
  version: z
    .string()
    .regex(/^[1-9]\d{0,8}$/, "must be a version number")
    .transform(Number),
});

import { z } from "zod";

/** The most label rows one request may carry. */
export const MAX_LABELS_PER_BATCH = 5000;

/**
 * One label learnt later: the right option of the decision that InvokeEndpoint's `InferenceId` named (the capture
 * records it as `eventMetadata.inferenceId`), and when it was learnt. `item` picks a decision of a shared-state
 * request (its position in `decisions`); a single decision is item 0.
 */
export const groundTruthRowSchema = z.strictObject({
  inferenceId: z.string().min(1).max(64),
  label: z.string().min(1).max(256),
  labelledAt: z.iso.datetime({ offset: true, error: "labelledAt must be an ISO 8601 date and time" }),
  item: z.number().int().min(0).optional(),
});
export type GroundTruthRow = z.infer<typeof groundTruthRowSchema>;

export const groundTruthBatchSchema = z.strictObject({
  labels: z
    .array(groundTruthRowSchema)
    .min(1, "labels must hold at least one row")
    .max(MAX_LABELS_PER_BATCH, `labels holds at most ${MAX_LABELS_PER_BATCH} rows; send more batches`),
});
export type GroundTruthBatch = z.infer<typeof groundTruthBatchSchema>;

/** A row that was not stored, and why (its position in the batch or its line in a ground-truth file). */
export const refusedLabelSchema = z.object({
  /** 0-based: the row's index in `labels`, or the line in `object`. */
  row: z.number().int(),
  object: z.string().optional(),
  inferenceId: z.string().nullable(),
  why: z.string(),
});
export type RefusedLabel = z.infer<typeof refusedLabelSchema>;

export const groundTruthResultSchema = z.object({
  /** Decisions whose label was stored or changed; the same label sent again changes nothing and counts here once. */
  stored: z.number().int(),
  /** Decisions that already had this label, learnt no later. */
  unchanged: z.number().int(),
});
export type GroundTruthResult = z.infer<typeof groundTruthResultSchema>;

/**
 * Ground-truth files SageMaker Model Monitor reads, under a prefix of the artifact bucket's `ground-truth/<endpoint>/`
 * folder (the same `yyyy/mm/dd/hh/` layout as captured data).
 */
export const groundTruthImportSchema = z.strictObject({
  prefix: z.string().min(1).max(1024),
});
export type GroundTruthImport = z.infer<typeof groundTruthImportSchema>;

export const groundTruthImportResultSchema = groundTruthResultSchema.extend({
  objects: z.number().int(),
  records: z.number().int(),
  /** Records not stored (at most the first 100 are listed; `refusedCount` counts them all). */
  refused: z.array(refusedLabelSchema),
  refusedCount: z.number().int(),
});
export type GroundTruthImportResult = z.infer<typeof groundTruthImportResultSchema>;

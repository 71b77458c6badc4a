import { z } from "zod";

export const MAX_DATASET_BYTES = 20 * 1024 * 1024;

/** `POST /api/datasets` as JSON: the file's text, or the name of a built-in sample (or multipart with `file`). */
export const uploadDatasetSchema = z.union([
  z.strictObject({
    name: z.string().trim().min(1, "give the dataset a name").max(200),
    text: z.string().min(1, "the file is empty"),
    format: z.enum(["jsonl", "csv"]).optional(),
  }),
  z.strictObject({ sample: z.string().min(1) }),
]);
export type UploadDatasetInput = z.infer<typeof uploadDatasetSchema>;

export const datasetSourceSchema = z.enum(["upload", "sample"]);
export type DatasetSource = z.infer<typeof datasetSourceSchema>;

export const datasetSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  source: datasetSourceSchema,
  format: z.string(),
  itemCount: z.number().int(),
  createdAt: z.iso.datetime(),
});
export type DatasetSummary = z.infer<typeof datasetSummarySchema>;

/** Items an endpoint refused as over its token budget in the latest evaluation of the dataset on it. */
export const tokenBudgetRefusalsSchema = z.object({
  endpointName: z.string(),
  count: z.number().int(),
  /** The first of them. */
  itemIds: z.array(z.string()),
  evaluationId: z.string(),
  evaluatedAt: z.iso.datetime(),
});
export type TokenBudgetRefusals = z.infer<typeof tokenBudgetRefusalsSchema>;

export const datasetDetailSchema = datasetSummarySchema.extend({
  /** Items per category, per tier and per right answer. */
  categories: z.record(z.string(), z.number().int()),
  tiers: z.record(z.string(), z.number().int()),
  answers: z.record(z.string(), z.number().int()),
  /** The first items, for a look at what was stored. */
  preview: z.array(
    z.object({ id: z.string(), question: z.string(), options: z.array(z.string()), answer: z.string() }),
  ),
  /** Per endpoint it was evaluated on, the items found over that endpoint's token budget (none listed: none found). */
  tokenBudgetRefusals: z.array(tokenBudgetRefusalsSchema),
});
export type DatasetDetail = z.infer<typeof datasetDetailSchema>;

/** A built-in dataset the console can add, with the reason when its file is absent here. */
export const sampleDatasetSchema = z.object({
  name: z.string(),
  title: z.string(),
  available: z.boolean(),
  reason: z.string().nullable(),
});
export type SampleDataset = z.infer<typeof sampleDatasetSchema>;

export const datasetListSchema = z.object({
  datasets: z.array(datasetSummarySchema),
  samples: z.array(sampleDatasetSchema),
});
export type DatasetList = z.infer<typeof datasetListSchema>;

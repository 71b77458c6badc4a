import { z } from "zod";
import type { DatasetDetail, DatasetSummary } from "./datasets/dataset-store.ts";
import type { SampleDataset } from "./datasets/samples.ts";
import type { EvaluationMetrics } from "./metrics/summary.ts";
import type { Comparison } from "./runs/comparison.ts";
import type { RunStatus } from "./runs/run-store.ts";

export const MAX_DATASET_BYTES = 20 * 1024 * 1024;
export const MAX_CONCURRENCY = 16;

/** `POST /api/datasets` as JSON: the file's text, or the name of a built-in sample. */
export const uploadDatasetSchema = z.union([
  z.strictObject({
    name: z.string().trim().min(1, "give the dataset a name").max(200),
    text: z.string().min(1, "the file is empty"),
    format: z.enum(["jsonl", "csv"]).optional(),
  }),
  z.strictObject({ sample: z.string().min(1) }),
]);
export type UploadDatasetInput = z.infer<typeof uploadDatasetSchema>;

export const endpointNameSchema = z
  .string()
  .regex(/^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$/, "must be a SageMaker endpoint name (letters, digits, hyphens)");

/** `POST /api/evaluations`. */
export const createEvaluationSchema = z.strictObject({
  datasetId: z.string().min(1),
  endpoints: z
    .array(endpointNameSchema)
    .min(1, "choose an endpoint")
    .max(2, "compare at most two endpoints")
    .refine((names) => new Set(names).size === names.length, "choose two different endpoints"),
  concurrency: z.number().int().min(1).max(MAX_CONCURRENCY).default(1),
  targetAccuracy: z.number().gt(0).max(1).default(0.9),
});
export type CreateEvaluationInput = z.input<typeof createEvaluationSchema>;

export const exportFormatSchema = z.enum(["csv", "json"], { error: "format must be csv or json" });

export interface DatasetList {
  datasets: DatasetSummary[];
  samples: Omit<SampleDataset, "file">[];
}

export type { DatasetDetail, DatasetSummary };

export interface EndpointProgress {
  slot: number;
  endpointName: string;
  done: number;
  total: number;
}

export interface EvaluationProgress {
  done: number;
  total: number;
  /** Estimated seconds left from the pace since the run (re)started; null until an item has finished. */
  etaSeconds: number | null;
  endpoints: EndpointProgress[];
}

export interface EvaluationSummary {
  id: string;
  datasetId: string;
  datasetName: string | null;
  endpoints: string[];
  status: RunStatus;
  concurrency: number;
  targetAccuracy: number;
  createdAt: string;
  finishedAt: string | null;
  failure: string | null;
  progress: EvaluationProgress;
}

export interface EndpointEvaluation {
  slot: number;
  endpointName: string;
  /** Instance type and threads when the run started, if the endpoint could be described. */
  configuration: string | null;
  metrics: EvaluationMetrics;
  /** Sum of the adapter's own per-item time (its `timing.total_seconds`), in ms. */
  adapterMsTotal: number;
}

export interface EvaluationDetail extends EvaluationSummary {
  results: EndpointEvaluation[];
  comparison: Comparison | null;
}

export const evaluationQuerySchema = z.object({
  /** Another run on the same dataset to compare with instead of the run's own second endpoint. */
  compareWith: z.string().min(1).optional(),
});

import type { UpdateRequest } from "@/contract/endpoints/update.ts";
import type { FieldsByPath } from "../forms/schema-problems.ts";

/** The update form as typed: every field a string, the changeable ones starting at what the endpoint runs now. */
export interface UpdateForm {
  /** The Approved registry version to serve; empty: none (image and artifact by hand). */
  modelVersionArn: string;
  imageUri: string;
  modelDataUrl: string;
  modelSha256: string;
  temperature: string;
  threads: string;
  parallel: string;
  instanceCount: string;
  /** The variant's instance type (empty for a pool variant). */
  instanceType: string;
  /** The variant's instance pools, highest priority first, separated by commas. */
  instancePools: string;
  strategy: UpdateRequest["strategy"]["kind"];
  sizeUnit: "instances" | "percent";
  sizeValue: string;
  waitSeconds: string;
  terminationWaitSeconds: string;
  /** Empty: SageMaker's default. */
  maxExecutionSeconds: string;
  /** Rolling only (RollbackMaximumBatchSize); empty: all at once. */
  rollbackSizeValue: string;
  rollbackSizeUnit: "instances" | "percent";
  alarms: UpdateRequest["alarms"]["kind"];
  latencyAverageMs: string;
  max5xxPerMinute: string;
  maxModelErrorsPerMinute: string;
  /** Existing alarm names, separated by commas or lines. */
  existingAlarms: string;
}

export type UpdateField = keyof UpdateForm;

/** The update form's labels; the step size and the wait are named after the strategy. */
export function updateFieldLabels(strategy: UpdateForm["strategy"]): Readonly<Record<UpdateField, string>> {
  return {
    modelVersionArn: "Model version",
    imageUri: "Image (pinned by digest)",
    modelDataUrl: "Model artifact (S3)",
    modelSha256: "Model sha256",
    temperature: "Temperature",
    threads: "Threads",
    parallel: "Parallel decisions",
    instanceCount: "Instance count",
    instanceType: "Instance type",
    instancePools: "Instance pools",
    strategy: "Strategy",
    sizeValue: strategy === "canary" ? "Canary size" : strategy === "linear" ? "Step size" : "Batch size",
    sizeUnit: "Size in",
    waitSeconds: strategy === "rolling" ? "Wait between batches (s)" : "Baking time (s)",
    terminationWaitSeconds: "Keep the old fleet after the shift (s)",
    maxExecutionSeconds: "Execution timeout (s)",
    rollbackSizeValue: "Rollback batch size",
    rollbackSizeUnit: "Rollback size in",
    alarms: "Alarms",
    latencyAverageMs: "ModelLatency average above (ms)",
    max5xxPerMinute: "5XX errors per minute above",
    maxModelErrorsPerMinute: "Model errors per minute above",
    existingAlarms: "Alarm names",
  };
}

/** Where each part of updateRequestSchema is typed in the form. */
export const updateFieldsByPath: FieldsByPath<UpdateField> = {
  "change.modelVersionArn": "modelVersionArn",
  "change.imageUri": "imageUri",
  "change.modelDataUrl": "modelDataUrl",
  "change.modelSha256": "modelSha256",
  "change.temperature": "temperature",
  "change.threads": "threads",
  "change.parallel": "parallel",
  "change.instanceCount": "instanceCount",
  "change.instanceType": "instanceType",
  "change.instancePools": "instancePools",
  "strategy.size": "sizeValue",
  "strategy.waitSeconds": "waitSeconds",
  "strategy.rollbackSize": "rollbackSizeValue",
  terminationWaitSeconds: "terminationWaitSeconds",
  maxExecutionSeconds: "maxExecutionSeconds",
  "alarms.latencyAverageMs": "latencyAverageMs",
  "alarms.max5xxPerMinute": "max5xxPerMinute",
  "alarms.maxModelErrorsPerMinute": "maxModelErrorsPerMinute",
  "alarms.names": "existingAlarms",
};

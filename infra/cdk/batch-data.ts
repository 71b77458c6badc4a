import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import { ARTIFACT_PREFIXES, BATCH_DATA_FOLDERS } from "../../contract/stack/console-contract.ts";

/** The console's batch data (`batch/*`): it writes jobs' inputs, reads their outputs and lists both. */
export function batchDataStatements(bucket: IBucket): PolicyStatement[] {
  return [
    new PolicyStatement({
      sid: "ReadWriteBatchData",
      actions: ["s3:GetObject", "s3:PutObject", "s3:AbortMultipartUpload"],
      resources: [bucket.arnForObjects(`${ARTIFACT_PREFIXES.batch}*`)],
    }),
    new PolicyStatement({
      sid: "ListBatchPrefix",
      actions: ["s3:ListBucket"],
      resources: [bucket.bucketArn],
      conditions: { StringLike: { "s3:prefix": [`${ARTIFACT_PREFIXES.batch}*`] } },
    }),
  ];
}

/**
 * What a transform job does with the execution role: list and read its inputs under `batch/inputs/`, write its
 * outputs under `batch/outputs/`; it may not overwrite an input, nor read another job's output.
 */
export function transformJobDataStatements(bucket: IBucket): PolicyStatement[] {
  return [
    new PolicyStatement({
      sid: "ReadTransformInputs",
      actions: ["s3:GetObject"],
      resources: [bucket.arnForObjects(`${BATCH_DATA_FOLDERS.inputs}*`)],
    }),
    new PolicyStatement({
      sid: "ListTransformInputs",
      actions: ["s3:ListBucket"],
      resources: [bucket.bucketArn],
      conditions: { StringLike: { "s3:prefix": [`${BATCH_DATA_FOLDERS.inputs}*`] } },
    }),
    new PolicyStatement({
      sid: "WriteTransformOutputs",
      actions: ["s3:PutObject", "s3:AbortMultipartUpload"],
      resources: [bucket.arnForObjects(`${BATCH_DATA_FOLDERS.outputs}*`)],
    }),
  ];
}

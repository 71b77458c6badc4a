import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import { ARTIFACT_PREFIXES } from "./console-contract.ts";

/**
 * Read, write and list batch transform data (`batch/*`): the console writes inputs and reads outputs, the
 * execution role reads inputs and writes outputs, the same statements on both.
 */
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

import { Duration, RemovalPolicy, Validations } from "aws-cdk-lib";
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from "aws-cdk-lib/aws-s3";
import type { Construct } from "constructs";

export interface LogTargetBucketProps {
  /** The id of the lifecycle rule that expires the logs after 90 days. */
  expiryRuleId: string;
  /** Why this bucket does not log its own requests (cdk-nag AwsSolutions-S1). */
  noAccessLogReason: string;
}

/**
 * A bucket other resources deliver their logs to: SSE-S3 (what S3 server access logging and ALB log delivery
 * support), public access blocked, TLS only, kept after the stack, each log expired after 90 days.
 */
export function createLogTargetBucket(scope: Construct, id: string, props: LogTargetBucketProps): Bucket {
  const bucket = new Bucket(scope, id, {
    encryption: BucketEncryption.S3_MANAGED,
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    enforceSSL: true,
    removalPolicy: RemovalPolicy.RETAIN,
    lifecycleRules: [{ id: props.expiryRuleId, expiration: Duration.days(90) }],
  });
  Validations.of(bucket).acknowledge({ id: "AwsSolutions-S1", reason: props.noAccessLogReason });
  return bucket;
}

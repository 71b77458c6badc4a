import { Duration, RemovalPolicy, Validations } from "aws-cdk-lib";
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from "aws-cdk-lib/aws-s3";
import type { Construct } from "constructs";

export const LOG_PREFIXES = { loadBalancer: "load-balancer", flowLogs: "vpc-flow-logs/" } as const;

/**
 * The load balancer's access logs and the VPC's flow logs, kept 90 days. SSE-S3: the only encryption ALB log
 * delivery supports.
 */
export function createHostingLogBucket(scope: Construct): Bucket {
  const bucket = new Bucket(scope, "HostingLogs", {
    encryption: BucketEncryption.S3_MANAGED,
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    enforceSSL: true,
    removalPolicy: RemovalPolicy.RETAIN,
    lifecycleRules: [{ id: "expire-logs", expiration: Duration.days(90) }],
  });
  Validations.of(bucket).acknowledge({
    id: "AwsSolutions-S1",
    reason:
      "This bucket holds the load balancer's and the VPC's logs; logging its own requests into itself would loop.",
  });
  return bucket;
}

import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from "aws-cdk-lib/aws-s3";
import type { Construct } from "constructs";
import { ARTIFACT_PREFIXES } from "../../contract/stack/console-contract.ts";
import { createLogTargetBucket } from "./log-target-bucket.ts";

/**
 * Model artifacts and build sources: S3-managed encryption (SageMaker and CodeBuild read it without KMS grants),
 * public access blocked, TLS only, versioned so an overwritten artifact can be recovered, every request recorded in
 * a server access log bucket (kept 90 days).
 */
export function createArtifactBucket(scope: Construct): Bucket {
  const accessLogs = createLogTargetBucket(scope, "ArtifactAccessLogs", {
    expiryRuleId: "expire-access-logs",
    noAccessLogReason: "This is the artifact bucket's access-log target; logging it into itself would loop.",
  });
  return new Bucket(scope, "ArtifactBucket", {
    serverAccessLogsBucket: accessLogs,
    serverAccessLogsPrefix: "artifact-bucket/",
    encryption: BucketEncryption.S3_MANAGED,
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    enforceSSL: true,
    versioned: true,
    removalPolicy: RemovalPolicy.RETAIN,
    lifecycleRules: [
      { id: "abort-incomplete-uploads", abortIncompleteMultipartUploadAfter: Duration.days(7) },
      { id: "expire-old-versions", noncurrentVersionExpiration: Duration.days(30) },
      { id: "expire-build-sources", prefix: ARTIFACT_PREFIXES.buildSources, expiration: Duration.days(30) },
    ],
  });
}

import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from "aws-cdk-lib/aws-s3";
import type { Construct } from "constructs";

/** Key prefixes inside the artifact bucket; each role gets only the prefixes it needs. */
export const ARTIFACT_PREFIXES = {
  /** Packaged models (`model.tar.gz` or uncompressed model data), read by SageMaker. */
  models: "models/",
  /** Repository snapshots the console uploads as CodeBuild sources. */
  buildSources: "build-sources/",
} as const;

/**
 * Model artifacts and build sources: S3-managed encryption (SageMaker and CodeBuild read it without KMS grants),
 * public access blocked, TLS only, versioned so an overwritten artifact can be recovered.
 */
export function createArtifactBucket(scope: Construct): Bucket {
  return new Bucket(scope, "ArtifactBucket", {
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

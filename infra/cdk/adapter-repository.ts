import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { Repository, RepositoryEncryption, TagMutability, TagStatus } from "aws-cdk-lib/aws-ecr";
import type { Construct } from "constructs";

/**
 * The adapter images. Tags are immutable (each build pushes `<variant>-build-<n>` and the console deploys by
 * digest), every push is scanned, untagged layers go after two weeks and only the newest 50 images stay.
 */
export function createAdapterRepository(scope: Construct, repositoryName: string): Repository {
  return new Repository(scope, "AdapterRepository", {
    repositoryName,
    imageTagMutability: TagMutability.IMMUTABLE,
    imageScanOnPush: true,
    encryption: RepositoryEncryption.AES_256,
    removalPolicy: RemovalPolicy.RETAIN,
    lifecycleRules: [
      {
        rulePriority: 1,
        description: "Drop untagged images",
        tagStatus: TagStatus.UNTAGGED,
        maxImageAge: Duration.days(14),
      },
      { rulePriority: 2, description: "Keep the newest 50 images", tagStatus: TagStatus.ANY, maxImageCount: 50 },
    ],
  });
}

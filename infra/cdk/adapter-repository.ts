import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { Repository, RepositoryEncryption, TagMutability, TagStatus } from "aws-cdk-lib/aws-ecr";
import type { Construct } from "constructs";
import { CONSOLE_IMAGE_REPOSITORY } from "../../contract/stack/console-contract.ts";

/**
 * An image repository as the builds use it: tags are immutable (each build pushes `<kind>-build-<n>` and
 * deployments run images by digest), every push is scanned, untagged layers go after two weeks and only the newest
 * 50 images stay.
 */
function imageRepository(scope: Construct, id: string, repositoryName: string): Repository {
  return new Repository(scope, id, {
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

/** The adapter images (cpu, cuda). */
export function createAdapterRepository(scope: Construct, repositoryName: string): Repository {
  return imageRepository(scope, "AdapterRepository", repositoryName);
}

/** The console image (infra/docker/Dockerfile.console). */
export function createConsoleImageRepository(scope: Construct): Repository {
  return imageRepository(scope, "ConsoleImageRepository", CONSOLE_IMAGE_REPOSITORY);
}

import type {
  BatchGetImageCommandInput,
  BatchGetImageCommandOutput,
  DescribeImagesCommandInput,
  DescribeImagesCommandOutput,
  DescribeRepositoriesCommandInput,
  DescribeRepositoriesCommandOutput,
  Image,
  ImageFailure,
  ListImagesCommandInput,
  ListImagesCommandOutput,
} from "@aws-sdk/client-ecr";
import { type ImageRegistry, type LocalImage, registryHost } from "../image-registry.ts";
import { AwsError } from "../wire/aws-error.ts";
import { ecrInputShapes } from "../wire/generated/ecr.ts";
import { withInputShapes } from "../wire/input-shapes.ts";
import type { JsonService } from "../wire/json-rpc.ts";
import { LOCAL_ACCOUNT_ID } from "../wire/request.ts";
import { servingOnly } from "../wire/served-members.ts";
import { asJsonOperations, type OnTheWire, type TypedOperation } from "../wire/typed-operations.ts";
import { ecrPage } from "./ecr-paging.ts";
import { ecrServedMembers } from "./ecr-served.ts";

interface ImageId {
  imageDigest?: string;
  imageTag?: string;
}

/** The operations this module serves, each typed with the SDK's own input and output. */
type EcrOperations = {
  DescribeRepositories: TypedOperation<DescribeRepositoriesCommandInput, DescribeRepositoriesCommandOutput>;
  DescribeImages: TypedOperation<DescribeImagesCommandInput, DescribeImagesCommandOutput>;
  ListImages: TypedOperation<ListImagesCommandInput, ListImagesCommandOutput>;
  BatchGetImage: TypedOperation<BatchGetImageCommandInput, BatchGetImageCommandOutput>;
};

function describeImageId(id: ImageId): string {
  return `{imageDigest:'${id.imageDigest ?? "null"}', imageTag:'${id.imageTag ?? "null"}'}`;
}

/** The registry a request names (`registryId`), else the caller's own, as ECR defaults it. */
function registryOf(input: { registryId?: string }): string {
  return input.registryId || LOCAL_ACCOUNT_ID;
}

/**
 * ECR (AWS JSON 1.1): DescribeRepositories, DescribeImages, ListImages, BatchGetImage over the local registry, whose
 * repositories belong to the local account or, for the llama.cpp DLC, to the DLC's account (`registryId`).
 */
export function ecrService(registry: ImageRegistry): JsonService {
  function repositoryOf(input: { registryId?: string; repositoryName: string }): string {
    const name = input.repositoryName;
    const registryId = registryOf(input);
    if (!registry.repository(name, registryId)) {
      throw new AwsError(
        "RepositoryNotFoundException",
        `The repository with name '${name}' does not exist in the registry with id '${registryId}'`,
      );
    }
    return name;
  }
  function find(repository: string, id: ImageId): LocalImage | undefined {
    const digest = id.imageDigest ?? (id.imageTag ? registry.digestForTag(repository, id.imageTag) : undefined);
    const image = digest ? registry.image(repository, digest) : undefined;
    if (image && id.imageTag && !image.tags.includes(id.imageTag)) return undefined;
    return image;
  }
  return {
    target: "AmazonEC2ContainerRegistry_V20150921",
    signingName: "ecr",
    version: "1.1",
    operations: withInputShapes(
      "ECR",
      ecrInputShapes,
      servingOnly(
        "ECR",
        ecrServedMembers,
        asJsonOperations({
          DescribeRepositories(input, request) {
            const registryId = registryOf(input);
            const all =
              input.repositoryNames ??
              registry.repositories.filter((r) => r.registryId === registryId).map((r) => r.name);
            const { items: names, nextToken } = ecrPage(all, input, "repositoryNames");
            return {
              nextToken,
              repositories: names.map((name) => {
                repositoryOf({ repositoryName: name, registryId });
                return {
                  repositoryArn: `arn:aws:ecr:${request.region}:${registryId}:repository/${name}`,
                  registryId,
                  repositoryName: name,
                  repositoryUri: `${registryHost(registryId, request.region)}/${name}`,
                  imageTagMutability: "MUTABLE",
                  imageScanningConfiguration: { scanOnPush: false },
                  encryptionConfiguration: { encryptionType: "AES256" },
                };
              }),
            };
          },
          DescribeImages(input) {
            const repository = repositoryOf(input);
            let images: LocalImage[];
            if (input.imageIds) {
              images = input.imageIds.map((id) => {
                const image = find(repository, id);
                if (!image) {
                  throw new AwsError(
                    "ImageNotFoundException",
                    `The image with imageId ${describeImageId(id)} does not exist within the repository with name '${repository}' in the registry with id '${registryOf(input)}'`,
                  );
                }
                return image;
              });
            } else {
              images = registry.images(repository);
              const tagStatus = input.filter?.tagStatus;
              if (tagStatus === "TAGGED") images = images.filter((image) => image.tags.length > 0);
              if (tagStatus === "UNTAGGED") images = images.filter((image) => image.tags.length === 0);
            }
            const { items: shown, nextToken } = ecrPage(images, input, "imageIds");
            return {
              nextToken,
              imageDetails: shown.map((image) => ({
                registryId: registryOf(input),
                repositoryName: repository,
                imageDigest: image.digest,
                imageTags: image.tags.length > 0 ? image.tags : undefined,
                imageSizeInBytes: image.size,
                imagePushedAt: image.pushedAt.getTime() / 1000,
                imageManifestMediaType: "application/vnd.docker.distribution.manifest.v2+json",
                artifactMediaType: "application/vnd.docker.container.image.v1+json",
              })),
            };
          },
          ListImages(input) {
            const repository = repositoryOf(input);
            const tagStatus = input.filter?.tagStatus;
            const ids = registry
              .images(repository)
              .filter((image) => tagStatus !== "TAGGED" || image.tags.length > 0)
              .filter((image) => tagStatus !== "UNTAGGED" || image.tags.length === 0)
              .flatMap((image) =>
                image.tags.length > 0
                  ? image.tags.map((tag) => ({ imageDigest: image.digest, imageTag: tag }))
                  : [{ imageDigest: image.digest }],
              );
            const { items: imageIds, nextToken } = ecrPage(ids, input, null);
            return { imageIds, nextToken };
          },
          BatchGetImage(input) {
            const repository = repositoryOf(input);
            const images: OnTheWire<Image>[] = [];
            const failures: OnTheWire<ImageFailure>[] = [];
            for (const id of input.imageIds) {
              const image = find(repository, id);
              if (!image) {
                failures.push({
                  imageId: id,
                  failureCode: "ImageNotFound",
                  failureReason: "Requested image not found",
                });
                continue;
              }
              images.push({
                registryId: registryOf(input),
                repositoryName: repository,
                imageId: { imageDigest: image.digest, imageTag: id.imageTag },
                imageManifest: JSON.stringify({ schemaVersion: 2, local: true, variant: image.variant }),
                imageManifestMediaType: "application/vnd.docker.distribution.manifest.v2+json",
              });
            }
            return { images, failures };
          },
        } satisfies EcrOperations),
        "InvalidParameterException",
      ),
      "InvalidParameterException",
    ),
  };
}

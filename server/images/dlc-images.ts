import { DescribeImagesCommand, type ECRClient } from "@aws-sdk/client-ecr";
import type { DeployableImage, ImageList } from "../../contract/images/images.ts";
import {
  LLAMA_CPP_DLC_ACCOUNTS,
  LLAMA_CPP_DLC_REPOSITORY,
  LLAMA_CPP_DLC_TAGS,
  llamaCppDlcRepositoryUri,
} from "../../contract/stack/llama-cpp-dlc.ts";
import { awsCall } from "../aws/errors.ts";

type Unresolved = ImageList["unresolved"][number];

/**
 * The llama.cpp DLC's SageMaker images in the Region's DLC registry, each tag resolved to its digest with
 * `ecr:DescribeImages` (the console's policy allows it on exactly that repository). A tag that cannot be resolved
 * is listed as unresolved with the reason, never offered by tag.
 */
export async function listDlcImages(
  ecr: ECRClient,
  region: string,
): Promise<{ images: DeployableImage[]; unresolved: Unresolved[] }> {
  const repositoryUri = llamaCppDlcRepositoryUri(region);
  const registryId = LLAMA_CPP_DLC_ACCOUNTS[region];
  const images: DeployableImage[] = [];
  const unresolved: Unresolved[] = [];
  for (const [variant, tag] of Object.entries(LLAMA_CPP_DLC_TAGS) as [keyof typeof LLAMA_CPP_DLC_TAGS, string][]) {
    if (!repositoryUri || !registryId) {
      unresolved.push({
        reference: `${LLAMA_CPP_DLC_REPOSITORY}:${tag}`,
        reason: `The llama.cpp DLC publishes no SageMaker image in ${region}.`,
      });
      continue;
    }
    const reference = `${repositoryUri}:${tag}`;
    try {
      const described = await awsCall(`image ${reference}`, () =>
        ecr.send(
          new DescribeImagesCommand({
            registryId,
            repositoryName: LLAMA_CPP_DLC_REPOSITORY,
            imageIds: [{ imageTag: tag }],
          }),
        ),
      );
      const detail = described.imageDetails?.[0];
      if (!detail?.imageDigest) throw new Error("ECR returned no digest");
      images.push({
        imageUri: `${repositoryUri}@${detail.imageDigest}`,
        repository: LLAMA_CPP_DLC_REPOSITORY,
        digest: detail.imageDigest,
        tags: detail.imageTags ?? [tag],
        pushedAt: detail.imagePushedAt ? detail.imagePushedAt.toISOString() : null,
        sizeBytes: detail.imageSizeInBytes ?? null,
        apiMode: "chat",
        source: "dlc",
        variant,
      });
    } catch (error) {
      unresolved.push({ reference, reason: `Could not resolve it to a digest: ${(error as Error).message}` });
    }
  }
  return { images, unresolved };
}

import {
  DescribeImagesCommand,
  type DescribeImagesCommandOutput,
  DescribeRepositoriesCommand,
  type ECRClient,
  type ImageDetail,
} from "@aws-sdk/client-ecr";
import type { DeployableImage, ImageList } from "../../contract/images/images.ts";
import { awsCall } from "../aws/errors.ts";
import { AppError } from "../http/app-error.ts";
import { listDlcImages } from "./dlc-images.ts";

function variantOf(tags: string[]): "cpu" | "cuda" | null {
  if (tags.some((tag) => tag.startsWith("cuda"))) return "cuda";
  if (tags.some((tag) => tag.startsWith("cpu"))) return "cpu";
  return null;
}

export function deployableImage(repositoryUri: string, repository: string, detail: ImageDetail): DeployableImage {
  const digest = detail.imageDigest ?? "";
  const tags = detail.imageTags ?? [];
  return {
    imageUri: `${repositoryUri}@${digest}`,
    repository,
    digest,
    tags,
    pushedAt: detail.imagePushedAt ? detail.imagePushedAt.toISOString() : null,
    sizeBytes: detail.imageSizeInBytes ?? null,
    apiMode: "decision",
    source: "ecr",
    variant: variantOf(tags),
  };
}

async function repositoryUriOf(ecr: ECRClient, repository: string): Promise<string> {
  const described = await awsCall(`ECR repository "${repository}"`, () =>
    ecr.send(new DescribeRepositoriesCommand({ repositoryNames: [repository] })),
  );
  return described.repositories?.[0]?.repositoryUri ?? repository;
}

/** Every tagged adapter image in the repository, newest first, each as a digest-pinned URI. */
export async function listAdapterImages(ecr: ECRClient, repository: string): Promise<DeployableImage[]> {
  const uri = await repositoryUriOf(ecr, repository);
  const details: ImageDetail[] = [];
  let nextToken: string | undefined;
  do {
    const page: DescribeImagesCommandOutput = await awsCall(`ECR repository "${repository}"`, () =>
      ecr.send(new DescribeImagesCommand({ repositoryName: repository, filter: { tagStatus: "TAGGED" }, nextToken })),
    );
    details.push(...(page.imageDetails ?? []));
    nextToken = page.nextToken;
  } while (nextToken);
  return details
    .map((detail) => deployableImage(uri, repository, detail))
    .sort((a, b) => (b.pushedAt ?? "").localeCompare(a.pushedAt ?? ""));
}

/** ECR tag -> digest-pinned image URI. */
export async function resolveImageTag(ecr: ECRClient, repository: string, tag: string): Promise<DeployableImage> {
  const uri = await repositoryUriOf(ecr, repository);
  const described = await awsCall(`image ${repository}:${tag}`, () =>
    ecr.send(new DescribeImagesCommand({ repositoryName: repository, imageIds: [{ imageTag: tag }] })),
  );
  const detail = described.imageDetails?.[0];
  if (!detail?.imageDigest) throw new AppError("upstream", `ECR returned no digest for ${repository}:${tag}.`);
  return deployableImage(uri, repository, detail);
}

/**
 * Adapter images from ECR, and the llama.cpp DLC's SageMaker images (DESIGN §11: chat only) from the DLC's
 * registry in the client's Region, all pinned by digest.
 */
export async function listDeployableImages(ecr: ECRClient, repository: string): Promise<ImageList> {
  const adapter = await listAdapterImages(ecr, repository);
  const dlc = await listDlcImages(ecr, await ecr.config.region());
  return { images: [...adapter, ...dlc.images], unresolved: dlc.unresolved };
}

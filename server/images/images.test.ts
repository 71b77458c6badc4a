import { DescribeImagesCommand, DescribeRepositoriesCommand, ECRClient } from "@aws-sdk/client-ecr";
import { mockClient } from "aws-sdk-client-mock";
import "aws-sdk-client-mock-vitest/extend";
import { beforeEach, describe, expect, it } from "vitest";
import { listDeployableImages, resolveImageTag } from "./images.ts";

const ecr = mockClient(ECRClient);
const client = new ECRClient({ region: "us-east-1" });
const uri = "123456789012.dkr.ecr.us-east-1.amazonaws.com/decision-adapter";
const digest = (c: string) => `sha256:${c.repeat(64)}`;

describe("images", () => {
  beforeEach(() => {
    ecr.reset();
    ecr
      .on(DescribeRepositoriesCommand)
      .resolves({ repositories: [{ repositoryName: "decision-adapter", repositoryUri: uri }] });
  });

  it("resolves an ECR tag to a digest-pinned image URI", async () => {
    ecr
      .on(DescribeImagesCommand)
      .resolves({ imageDetails: [{ imageDigest: digest("a"), imageTags: ["cuda", "cuda-build-3"] }] });
    const image = await resolveImageTag(client, "decision-adapter", "cuda");
    expect(image).toMatchObject({ imageUri: `${uri}@${digest("a")}`, variant: "cuda", apiMode: "decision" });
    expect(ecr).toHaveReceivedCommandWith(DescribeImagesCommand, {
      repositoryName: "decision-adapter",
      imageIds: [{ imageTag: "cuda" }],
    });
  });

  it("lists every tagged image across pages, newest first, and the DLC tags as unresolved", async () => {
    ecr
      .on(DescribeImagesCommand)
      .resolvesOnce({
        imageDetails: [{ imageDigest: digest("a"), imageTags: ["cpu-build-1"], imagePushedAt: new Date("2026-11-01") }],
        nextToken: "2",
      })
      .resolvesOnce({
        imageDetails: [{ imageDigest: digest("b"), imageTags: ["cpu"], imagePushedAt: new Date("2026-11-29") }],
      });
    const list = await listDeployableImages(client, "decision-adapter");
    expect(list.images.map((i) => i.digest)).toEqual([digest("b"), digest("a")]);
    expect(ecr).toHaveReceivedNthCommandWith(DescribeImagesCommand, 1, { filter: { tagStatus: "TAGGED" } });
    expect(list.unresolved.map((u) => u.reference)).toEqual([
      "public.ecr.aws/deep-learning-containers/llama-cpp:server-sagemaker-cpu-v1",
      "public.ecr.aws/deep-learning-containers/llama-cpp:server-sagemaker-cuda-v1",
    ]);
  });

  it("answers 404 for a tag the repository does not hold", async () => {
    ecr
      .on(DescribeImagesCommand)
      .rejects(Object.assign(new Error("The image does not exist"), { name: "ImageNotFoundException" }));
    await expect(resolveImageTag(client, "decision-adapter", "nope")).rejects.toMatchObject({ status: 404 });
  });
});

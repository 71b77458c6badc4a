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

  it("lists every tagged image across pages, newest first, then the DLC images of the Region's DLC registry", async () => {
    ecr
      .on(DescribeImagesCommand, { repositoryName: "decision-adapter" })
      .resolvesOnce({
        imageDetails: [{ imageDigest: digest("a"), imageTags: ["cpu-build-1"], imagePushedAt: new Date("2026-11-01") }],
        nextToken: "2",
      })
      .resolvesOnce({
        imageDetails: [{ imageDigest: digest("b"), imageTags: ["cpu"], imagePushedAt: new Date("2026-11-29") }],
      });
    ecr
      .on(DescribeImagesCommand, { registryId: "763104351884", imageIds: [{ imageTag: "server-sagemaker-cpu-v1" }] })
      .resolves({ imageDetails: [{ imageDigest: digest("c"), imageTags: ["server-sagemaker-cpu-v1"] }] });
    ecr
      .on(DescribeImagesCommand, { registryId: "763104351884", imageIds: [{ imageTag: "server-sagemaker-cuda-v1" }] })
      .rejects(
        Object.assign(new Error("not authorized to perform: ecr:DescribeImages"), { name: "AccessDeniedException" }),
      );
    const list = await listDeployableImages(client, "decision-adapter");
    expect(list.images.map((i) => i.digest)).toEqual([digest("b"), digest("a"), digest("c")]);
    expect(ecr).toHaveReceivedNthCommandWith(DescribeImagesCommand, 1, { filter: { tagStatus: "TAGGED" } });
    expect(list.images[2]).toMatchObject({
      imageUri: `763104351884.dkr.ecr.us-east-1.amazonaws.com/llama-cpp@${digest("c")}`,
      source: "dlc",
      apiMode: "chat",
      variant: "cpu",
    });
    expect(list.unresolved).toEqual([
      {
        reference: "763104351884.dkr.ecr.us-east-1.amazonaws.com/llama-cpp:server-sagemaker-cuda-v1",
        reason: expect.stringContaining("ecr:DescribeImages"),
      },
    ]);
  });

  it("looks the DLC up in the account of the client's Region (eu-south-1 has its own)", async () => {
    ecr.on(DescribeImagesCommand).resolves({ imageDetails: [{ imageDigest: digest("d"), imageTags: ["x"] }] });
    const list = await listDeployableImages(new ECRClient({ region: "eu-south-1" }), "decision-adapter");
    expect(list.images.filter((i) => i.source === "dlc").map((i) => i.imageUri)).toEqual([
      `692866216735.dkr.ecr.eu-south-1.amazonaws.com/llama-cpp@${digest("d")}`,
      `692866216735.dkr.ecr.eu-south-1.amazonaws.com/llama-cpp@${digest("d")}`,
    ]);
    expect(ecr).toHaveReceivedCommandWith(DescribeImagesCommand, { registryId: "692866216735" });
  });

  it("answers 404 for a tag the repository does not hold", async () => {
    ecr
      .on(DescribeImagesCommand)
      .rejects(Object.assign(new Error("The image does not exist"), { name: "ImageNotFoundException" }));
    await expect(resolveImageTag(client, "decision-adapter", "nope")).rejects.toMatchObject({ status: 404 });
  });
});

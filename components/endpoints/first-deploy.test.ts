import { describe, expect, it } from "vitest";
import type { Build } from "@/contract/builds/builds.ts";
import { deployRequestSchema } from "@/contract/endpoints/deploy.ts";
import type { ImageList } from "@/contract/images/images.ts";
import { adapterImage, FIRST_ENDPOINT_NAME, firstDeployRequest, seededModelBuild } from "./first-deploy.ts";

const modelBuild = (id: string, modelDataUrl: string): Build =>
  ({
    id,
    kind: "model",
    status: "SUCCEEDED",
    outputs: {
      modelDataUrl,
      modelSha256: "b".repeat(64),
      modelBytes: 98_000_000,
      imageUri: null,
      imageDigest: null,
    },
  }) as Build;

const adapter: ImageList["images"][number] = {
  imageUri: `123456789012.dkr.ecr.us-east-1.amazonaws.com/decision-adapter@sha256:${"a".repeat(64)}`,
  repository: "decision-adapter",
  digest: `sha256:${"a".repeat(64)}`,
  tags: ["cpu"],
  pushedAt: "2026-12-07T09:00:00.000Z",
  sizeBytes: null,
  apiMode: "decision",
  source: "ecr",
  variant: "cpu",
};

const seeded = modelBuild("seed-smol", "s3://decision-console-local/models/seed/SmolLM2-135M-Instruct/model.tar.gz");
const tiny = modelBuild("seed-tiny", "s3://decision-console-local/models/seed/tiny/model.tar.gz");

describe("a newcomer's first deployment", () => {
  it("deploys the seeded SmolLM2 on the adapter image with the deploy form's defaults, a request the API accepts", () => {
    const model = seededModelBuild([tiny, seeded]);
    const image = adapterImage([{ ...adapter, apiMode: "chat", source: "dlc", variant: null }, adapter]);
    expect(model?.id).toBe("seed-smol");
    expect(image).toEqual(adapter);
    const parsed = deployRequestSchema.parse(firstDeployRequest(model as Build, adapter));
    expect(parsed).toMatchObject({ name: FIRST_ENDPOINT_NAME, imageUri: adapter.imageUri });
    expect(JSON.stringify(parsed)).toContain("models/seed/SmolLM2-135M-Instruct/model.tar.gz");
  });

  it("finds no seeded SmolLM2 or adapter image where there is none", () => {
    expect(seededModelBuild([tiny])).toBeNull();
    expect(adapterImage([{ ...adapter, apiMode: "chat", source: "dlc" }])).toBeNull();
  });
});

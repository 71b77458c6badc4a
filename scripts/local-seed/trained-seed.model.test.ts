import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BatchGetBuildsCommand, CodeBuildClient } from "@aws-sdk/client-codebuild";
import { type ControlPlane, localClientConfig, startControlPlane } from "@decision-console/local-aws";
import { testStackFixture } from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modelPin, TRAINED_MODEL } from "../models/pins.ts";
import { trainedModel } from "../models/trained-model.ts";
import { type SeedModel, seedModels } from "./seed-models.ts";
import { TRAINED_SEED_NAME, trainedSeedSource } from "./trained-seed.ts";

const LOCAL_ARTIFACT_BUCKET = testStackFixture().bucket;

/** First-run seeding of the trained model from the models:fetch cache, through a real model-packaging build. */
const model = trainedModel();
if (!model.path) console.warn(`skipping the trained-model seeding tests: ${model.skipReason}`);

describe.skipIf(!model.path)("local mode seeds SmolLM2-135M-Instruct from the cache", () => {
  let dataDir: string;
  let plane: ControlPlane;
  let seeded: SeedModel[];
  const skipped: string[] = [];

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "trained-seed-"));
    plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0, waitForEndpoints: false });
    seeded = await seedModels(plane, { onSkip: (name) => skipped.push(name) });
  }, 300_000);
  afterAll(async () => {
    await plane?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("packages the pinned file as models/seed/SmolLM2-135M-Instruct/model.tar.gz with its sha256", async () => {
    const pin = modelPin(TRAINED_MODEL);
    const entry = seeded.find((candidate) => candidate.name === TRAINED_SEED_NAME);
    expect(skipped).toEqual([]);
    expect(entry?.modelDataUrl).toBe(`s3://${LOCAL_ARTIFACT_BUCKET}/models/seed/SmolLM2-135M-Instruct/model.tar.gz`);
    const codeBuild = new CodeBuildClient(localClientConfig(plane));
    const { builds } = await codeBuild.send(new BatchGetBuildsCommand({ ids: [entry!.buildId!] }));
    expect(builds?.[0]?.buildStatus).toBe("SUCCEEDED");
    const exported = Object.fromEntries(
      (builds?.[0]?.exportedEnvironmentVariables ?? []).map(({ name, value }) => [name, value]),
    );
    expect(exported).toMatchObject({ MODEL_SHA256: pin.sha256, MODEL_BYTES: String(pin.bytes) });
    expect(plane.objects.find(LOCAL_ARTIFACT_BUCKET, "models/seed/SmolLM2-135M-Instruct/model.tar.gz")).toBeDefined();
  });

  it("leaves no copy of the 98 MB file in the build sources", () => {
    const seedDir = path.join(dataDir, "build-sources", "seed");
    expect(fs.readdirSync(seedDir).filter((name) => name.startsWith(TRAINED_SEED_NAME))).toEqual([]);
  });

  it("does not hash the cache again once seeded", async () => {
    let asked = 0;
    const again = await seedModels(plane, {
      trainedModel: () => {
        asked++;
        return trainedSeedSource();
      },
    });
    expect(asked).toBe(0);
    expect(again.find((candidate) => candidate.name === TRAINED_SEED_NAME)).toEqual({
      name: TRAINED_SEED_NAME,
      modelDataUrl: `s3://${LOCAL_ARTIFACT_BUCKET}/models/seed/SmolLM2-135M-Instruct/model.tar.gz`,
    });
  });
});

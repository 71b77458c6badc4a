import { ListBucketsCommand, S3Client } from "@aws-sdk/client-s3";
import { type ControlPlane, localClientConfig } from "@decision-console/local-aws";
import { testStackFixture, throttledPlanes } from "@decision-console/local-aws/testing";
import { afterEach, describe, expect, it } from "vitest";
import { seedModels, WITHOUT_TRAINED_MODEL } from "./seed-models.ts";

const LOCAL_ARTIFACT_BUCKET = testStackFixture().bucket;

/** Seeding on a control plane that throttles every service to one request a second (LOCAL_AWS_MAX_TPS=1). */
const planes = throttledPlanes();
afterEach(() => planes.closeAll());

describe("first-run seeding beyond LOCAL_AWS_MAX_TPS", () => {
  it("first-run seeding through S3 is throttled, retries as the SDK does, and succeeds", async () => {
    // Time moves on by one second each time a request is throttled, so every retry finds a new window.
    const start = Date.now();
    let plane: ControlPlane | undefined;
    const limited = await planes.start(() => start + 1000 * (plane?.traffic.throttled ?? 0));
    plane = limited;
    await new S3Client({ ...localClientConfig(limited), forcePathStyle: true }).send(new ListBucketsCommand({}));
    // The trained model's 98 MB upload is left out: its seeding is trained-seed.model.test.ts's.
    const seeded = await seedModels(limited, WITHOUT_TRAINED_MODEL);
    expect(seeded.map((model) => model.modelDataUrl)).toContain(
      `s3://${LOCAL_ARTIFACT_BUCKET}/models/seed/synthetic-tiny/model.tar.gz`,
    );
    for (const model of seeded) {
      expect(
        limited.objects.find(LOCAL_ARTIFACT_BUCKET, model.modelDataUrl.split(`${LOCAL_ARTIFACT_BUCKET}/`)[1]!),
      ).toBeDefined();
    }
    expect(limited.traffic.throttled).toBeGreaterThanOrEqual(seeded.length);
  }, 120_000);
});

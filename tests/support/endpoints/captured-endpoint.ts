import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ControlPlane, startControlPlane } from "@decision-console/local-aws";
import { localAdapterImageUri, publishTinyModelArchive, testStackFixture } from "@decision-console/local-aws/testing";
import { deployRequestSchema } from "../../../contract/endpoints/deploy.ts";
import { consoleClientsFor } from "../../../server/aws/local-console-clients.ts";
import { deployEndpoint } from "../../../server/endpoints/deploy.ts";

export interface CapturePlane {
  plane: ControlPlane;
  dataDir: string;
  modelDataUrl: string;
  close: () => Promise<void>;
}

/**
 * A local control plane in a fresh directory, with the tiny model published as a model archive; `metricClock` moves
 * local CloudWatch's time (alarm periods) apart from the requests'.
 */
export async function planeWithTinyModel(
  name: string,
  options: Pick<Parameters<typeof startControlPlane>[0], "metricClock"> = {},
): Promise<CapturePlane> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `console-${name}-`));
  const plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0, ...options });
  const modelDataUrl = await publishTinyModelArchive(plane, name, dataDir);
  return {
    plane,
    dataDir,
    modelDataUrl,
    close: async () => {
      await plane.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The tiny model deployed by the console (its credentials and IAM policy) with `samplingPercentage` captured. */
export async function deployCapturedEndpoint(
  { plane, modelDataUrl }: CapturePlane,
  name: string,
  samplingPercentage = 100,
): Promise<void> {
  const request = deployRequestSchema.parse({
    name,
    imageUri: localAdapterImageUri(plane),
    modelDataUrl,
    compute: { kind: "cpu", instanceType: "ml.c6i.large", threads: 1 },
    dataCapture: { samplingPercentage },
  });
  await deployEndpoint(consoleClientsFor(plane).sageMaker, request, {
    defaultExecutionRoleArn: plane.executionRoleArn,
    resourceNamePrefix: plane.resourcePrefix,
    artifactBucket: plane.bucket,
  });
  await plane.endpoints.settled(name);
}

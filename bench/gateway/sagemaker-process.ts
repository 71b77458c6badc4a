import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { localClientConfig, startControlPlane } from "@decision-console/local-aws";
import { localAdapterImageUri, publishModelArchive } from "@decision-console/local-aws/testing";
import { deployRequestSchema } from "../../contract/endpoints/deploy.ts";
import { workspaceStackFixture } from "../../infra/local-stack/workspace-fixture.ts";
import { consoleClientsFor } from "../../server/aws/local-console-clients.ts";
import { deployEndpoint } from "../../server/endpoints/deploy.ts";
import { answerParent, reply } from "./processes.ts";

/**
 * bench:gateway's SageMaker: local mode's control plane and one endpoint of the bench's model, in a process of its
 * own, as SageMaker is to the console and to an application. Replies with the endpoint's name and the settings of
 * a SageMaker Runtime client that signs as the console once the endpoint is InService; closes when asked.
 */
const { values } = parseArgs({ options: { model: { type: "string" }, threads: { type: "string" } } });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-gateway-aws-"));
process.env.LOCAL_ADAPTER_THREADS = values.threads;
const plane = await startControlPlane({ fixture: workspaceStackFixture(), dataDir, port: 0 });
const endpoint = "dc-bench-gateway";
await reply(async () => {
  const modelDataUrl = await publishModelArchive(plane, "gateway-bench", values.model!, dataDir);
  const request = deployRequestSchema.parse({
    name: endpoint,
    imageUri: localAdapterImageUri(plane),
    modelDataUrl,
    compute: { kind: "cpu", instanceType: "ml.c6i.large", threads: Number(values.threads) },
  });
  await deployEndpoint(consoleClientsFor(plane).sageMaker, request, {
    defaultExecutionRoleArn: plane.executionRoleArn,
    resourceNamePrefix: plane.resourcePrefix,
    artifactBucket: plane.bucket,
  });
  await plane.endpoints.settled(endpoint);
  return { endpoint, runtime: localClientConfig(plane, "console") };
});
answerParent(async () => {
  await plane.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  setImmediate(() => process.exit(0));
});

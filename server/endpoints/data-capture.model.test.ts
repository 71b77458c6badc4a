import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ControlPlane, startControlPlane } from "@decision-console/local-aws";
import {
  localAdapterImageUri,
  publishTinyModelArchive,
  routeDecision,
  testStackFixture,
} from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deployRequestSchema } from "../../contract/endpoints/deploy.ts";
import { monitoringQuerySchema } from "../../contract/endpoints/monitoring.ts";
import { openTestStore } from "../../tests/support/store/test-stores.ts";
import { consoleClientsFor } from "../aws/local-console-clients.ts";
import { asyncOutcome } from "../invoke/async-outcome.ts";
import { invokeEndpoint } from "../invoke/invoke.ts";
import { invokeEndpointAsync } from "../invoke/invoke-async.ts";
import { readEndpointCaptures } from "../monitoring/capture-reading.ts";
import { endpointMonitoring } from "../monitoring/endpoint-monitoring.ts";
import { deployEndpoint } from "./deploy.ts";
import { describeEndpoint } from "./describe.ts";

/**
 * A deployment with data capture, as the console makes it with its own credentials and IAM policy: the endpoint
 * reports capture Started, and each invocation through the console's runtime call is one record in the bucket; an
 * asynchronous endpoint's answered requests are recorded too, and the Monitoring view counts them.
 */
let dataDir: string;
let plane: ControlPlane;
let modelDataUrl: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "console-capture-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0 });
  modelDataUrl = await publishTinyModelArchive(plane, "capture", dataDir);
}, 120_000);

afterAll(async () => {
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The tiny model deployed by the console with every invocation captured. */
async function deployCaptured(name: string, extra: Record<string, unknown> = {}) {
  const request = deployRequestSchema.parse({
    name,
    imageUri: localAdapterImageUri(plane),
    modelDataUrl,
    compute: { kind: "cpu", instanceType: "ml.c6i.large", threads: 1 },
    dataCapture: { samplingPercentage: 100 },
    ...extra,
  });
  await deployEndpoint(consoleClientsFor(plane).sageMaker, request, {
    defaultExecutionRoleArn: plane.executionRoleArn,
    resourceNamePrefix: plane.resourcePrefix,
    artifactBucket: plane.bucket,
  });
  await plane.endpoints.settled(name);
}

describe("a console deployment with data capture", { timeout: 120_000 }, () => {
  it("captures every invocation under data-capture/<endpoint>/AllTraffic/", async () => {
    const clients = consoleClientsFor(plane);
    await deployCaptured("dc-captured");
    const detail = await describeEndpoint(clients, "dc-captured");
    expect(detail.dataCapture).toEqual({
      enabled: true,
      status: "Started",
      samplingPercentage: 100,
      destination: `s3://${plane.bucket}/data-capture`,
    });
    for (let i = 0; i < 5; i++) await invokeEndpoint(clients.runtime, "dc-captured", routeDecision);
    await plane.capture.flush();
    const objects = plane.objects.list(plane.bucket, "data-capture/dc-captured/AllTraffic/", "", 100);
    const lines = objects.flatMap((object) =>
      fs.readFileSync(plane.objects.getObject(plane.bucket, object.key).file, "utf8").trim().split("\n"),
    );
    expect(lines).toHaveLength(5);
    const record = JSON.parse(lines[0] ?? "{}");
    expect(JSON.parse(record.captureData.endpointInput.data)).toEqual(routeDecision);
    expect(record.captureData.endpointOutput.encoding).toBe("JSON");
  });

  it("captures an asynchronous endpoint's answered requests, which the Monitoring view counts", async () => {
    const clients = consoleClientsFor(plane);
    await deployCaptured("dc-captured-async", { invocation: { mode: "asynchronous" } });
    const sent = [];
    for (let i = 0; i < 4; i++) {
      sent.push(await invokeEndpointAsync(clients, plane.bucket, "dc-captured-async", routeDecision));
    }
    for (const invocation of sent) {
      for (let waited = 0; (await asyncOutcome(clients.s3, invocation)).status === "pending"; waited += 200) {
        if (waited > 60_000) throw new Error(`${invocation.inferenceId} was not answered within a minute`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect((await asyncOutcome(clients.s3, invocation)).status).toBe("completed");
    }
    await plane.capture.flush();

    const { store, close } = await openTestStore("sqlite");
    const deps = {
      s3: clients.s3,
      sageMaker: clients.sageMaker,
      cloudWatch: clients.cloudWatch,
      store,
      artifactBucket: plane.bucket,
    };
    await readEndpointCaptures(deps, "dc-captured-async");
    const view = await endpointMonitoring(
      deps,
      "dc-captured-async",
      monitoringQuerySchema.parse({ window: "1h", threshold: "0.5" }),
    );
    await close();
    expect(view.decisions).toBe(4);
    expect(view.kinds.map((kind) => kind.question)).toEqual([routeDecision.decision.question]);
  });
});

import path from "node:path";
import { DescribeEndpointCommand } from "@aws-sdk/client-sagemaker";
import type { ControlPlane } from "@decision-console/local-aws";
import { routeDecision } from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { promoteShadowRequestSchema, shadowTestRequestSchema } from "../../contract/endpoints/shadow-test.ts";
import { updateRequestSchema } from "../../contract/endpoints/update.ts";
import {
  type CapturePlane,
  deployCapturedEndpoint,
  planeWithTinyModel,
} from "../../tests/support/endpoints/captured-endpoint.ts";
import { consoleClientsFor } from "../aws/local-console-clients.ts";
import { invokeEndpoint } from "../invoke/invoke.ts";
import { openDatabase } from "../store/database.ts";
import { endShadowTest, promoteShadow, startShadowTest } from "./shadow-test.ts";
import { updateEndpoint } from "./update.ts";

/**
 * A shadow test as the console runs one, with its own credentials and IAM policy: started beside the serving
 * model, ended back to the configuration before it, and promoted through the console's update.
 */
let setup: CapturePlane;
let plane: ControlPlane;
let dataDir: string;
const ENDPOINT = "dc-shadow-test";

beforeAll(async () => {
  setup = await planeWithTinyModel("shadow-test");
  ({ plane, dataDir } = setup);
  await deployCapturedEndpoint(setup, ENDPOINT);
}, 120_000);

afterAll(() => setup?.close());

const temperatureOf = async (clients: ReturnType<typeof consoleClientsFor>) => {
  const answer = await invokeEndpoint(clients.runtime, ENDPOINT, routeDecision);
  return (answer.body as { result: { temperature: number } }).result.temperature;
};

describe("a shadow test from the console", { timeout: 240_000 }, () => {
  it("starts beside production, ends back where it was, and promotes through the console's update", async () => {
    const clients = consoleClientsFor(plane);
    const db = openDatabase(path.join(dataDir, "console.db"));
    const before = await clients.sageMaker.send(new DescribeEndpointCommand({ EndpointName: ENDPOINT }));
    const servingTemperature = await temperatureOf(clients);
    const options = { actor: "ops", resourceNamePrefix: plane.resourcePrefix };
    const request = shadowTestRequestSchema.parse({ change: { temperature: 0.7 }, samplingPercentage: 100 });

    const started = await startShadowTest(clients.sageMaker, db, ENDPOINT, request, options);
    await plane.endpoints.settled(ENDPOINT);
    const shadowed = await clients.sageMaker.send(new DescribeEndpointCommand({ EndpointName: ENDPOINT }));
    expect(shadowed.EndpointConfigName).toBe(started.endpointConfigName);
    expect(shadowed.ShadowProductionVariants?.map((variant) => variant.VariantName)).toEqual(["Shadow"]);
    // Callers still get production's answers while the candidate reads a copy.
    expect(await temperatureOf(clients)).toBe(servingTemperature);
    await expect(startShadowTest(clients.sageMaker, db, ENDPOINT, request, options)).rejects.toMatchObject({
      code: "conflict",
    });
    const update = updateRequestSchema.parse({
      change: { temperature: 0.9 },
      strategy: { kind: "all-at-once", waitSeconds: 0 },
      alarms: { kind: "none" },
    });
    await expect(updateEndpoint(clients, ENDPOINT, update)).rejects.toMatchObject({ code: "conflict" });

    const ended = await endShadowTest(clients.sageMaker, db, ENDPOINT);
    expect(ended.endpointConfigName).toBe(before.EndpointConfigName);
    await plane.endpoints.settled(ENDPOINT);
    const back = await clients.sageMaker.send(new DescribeEndpointCommand({ EndpointName: ENDPOINT }));
    expect(back.EndpointConfigName).toBe(before.EndpointConfigName);
    expect(back.ShadowProductionVariants).toBeUndefined();
    await expect(endShadowTest(clients.sageMaker, db, ENDPOINT)).rejects.toMatchObject({ code: "conflict" });

    await startShadowTest(clients.sageMaker, db, ENDPOINT, request, options);
    await plane.endpoints.settled(ENDPOINT);
    const promotion = promoteShadowRequestSchema.parse({
      strategy: { kind: "all-at-once", waitSeconds: 0 },
      alarms: { kind: "none" },
    });
    const { result, task } = await promoteShadow(clients.sageMaker, db, ENDPOINT, promotion, {
      pollSeconds: 1,
      startUpdate: (next) => updateEndpoint(clients, ENDPOINT, next),
    });
    expect(result.followedBy).toEqual({ change: { temperature: 0.7 }, strategy: "all-at-once" });
    await task;
    await plane.endpoints.settled(ENDPOINT);
    const promoted = await clients.sageMaker.send(new DescribeEndpointCommand({ EndpointName: ENDPOINT }));
    expect(promoted.ShadowProductionVariants).toBeUndefined();
    expect(promoted.EndpointConfigName).not.toBe(before.EndpointConfigName);
    expect(await temperatureOf(clients)).toBe(0.7);
    db.close();
  });
});

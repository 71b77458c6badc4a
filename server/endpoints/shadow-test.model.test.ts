import path from "node:path";
import {
  DescribeEndpointCommand,
  DescribeEndpointConfigCommand,
  DescribeModelCommand,
} from "@aws-sdk/client-sagemaker";
import { semifVariables } from "@decision-console/adapter/contract";
import type { ControlPlane } from "@decision-console/local-aws";
import { routeDecision } from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { promoteShadowRequestSchema, shadowTestRequestSchema } from "../../contract/endpoints/shadow-test.ts";
import { updateRequestSchema } from "../../contract/endpoints/update.ts";
import {
  type CapturePlane,
  deployCapturedEndpoint,
  planeWithTinyModel,
} from "../../tests/support/endpoints/captured-endpoint.ts";
import { consoleClientsFor } from "../aws/local-console-clients.ts";
import { invokeEndpoint } from "../invoke/invoke.ts";
import { type Db, openDatabase } from "../store/database.ts";
import { resumeShadowPromotions } from "./resume-promotions-on-start.ts";
import { endShadowTest, finishShadowPromotion, promoteShadow, startShadowTest } from "./shadow-test.ts";
import { updateEndpoint } from "./update.ts";

/**
 * A shadow test as the console runs one, with its own credentials and IAM policy: started beside the serving
 * model, ended back to the configuration before it, and promoted through the console's update, also when the
 * console stops before that update starts.
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

/** A console process: its clients and database, as `consoleContext()` hands them to routes and start-up work. */
const consoleProcess = () => {
  const aws = consoleClientsFor(plane);
  return { aws, db: openDatabase(path.join(dataDir, "current.db")), scope: { prefix: plane.resourcePrefix } };
};

const promotion = promoteShadowRequestSchema.parse({
  strategy: { kind: "all-at-once", waitSeconds: 0 },
  alarms: { kind: "none" },
});

/** A shadow test of `temperature`, running once the endpoint is InService with it. */
const shadowTestOf = async ({ aws, db }: ReturnType<typeof consoleProcess>, temperature: number) => {
  const request = shadowTestRequestSchema.parse({ change: { temperature }, samplingPercentage: 100 });
  await startShadowTest(aws.sageMaker, db, ENDPOINT, request, {
    actor: "ops",
    resourceNamePrefix: plane.resourcePrefix,
  });
  await plane.endpoints.settled(ENDPOINT);
};

const storedPromotions = (db: Db) =>
  db.prepare("SELECT endpoint_name, requested_by, attempts FROM shadow_promotions").all() as {
    endpoint_name: string;
    requested_by: string;
    attempts: number;
  }[];

const updatesAudited = (db: Db, sinceId: number) =>
  db
    .prepare("SELECT actor, result FROM audit_log WHERE action = 'endpoint.update' AND target = ? AND id > ?")
    .all(ENDPOINT, sinceId);

const lastAuditId = (db: Db) =>
  (db.prepare("SELECT MAX(id) AS id FROM audit_log").get() as { id: number | null }).id ?? 0;

describe("a shadow test from the console", { timeout: 240_000 }, () => {
  it("starts beside production, ends back where it was, and promotes through the console's update", async () => {
    const clients = consoleClientsFor(plane);
    const db = openDatabase(path.join(dataDir, "current.db"));
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
    const result = await promoteShadow(clients.sageMaker, db, ENDPOINT, promotion, { actor: "ops" });
    expect(result.followedBy).toEqual({ change: { temperature: 0.7 }, strategy: "all-at-once" });
    await finishShadowPromotion({ aws: clients, db, scope: { prefix: plane.resourcePrefix } }, ENDPOINT, {
      pollSeconds: 1,
    });
    await plane.endpoints.settled(ENDPOINT);
    const promoted = await clients.sageMaker.send(new DescribeEndpointCommand({ EndpointName: ENDPOINT }));
    expect(promoted.ShadowProductionVariants).toBeUndefined();
    expect(promoted.EndpointConfigName).not.toBe(before.EndpointConfigName);
    expect(await temperatureOf(clients)).toBe(0.7);
    db.close();
  });

  it("refuses a new shadow test or promotion while a promotion waits to start its update", async () => {
    const current = consoleProcess();
    await shadowTestOf(current, 0.4);
    await promoteShadow(current.aws.sageMaker, current.db, ENDPOINT, promotion, { actor: "ops" });
    const waiting = { code: "conflict", message: expect.stringContaining("shadow promotion waiting") };
    const request = shadowTestRequestSchema.parse({ change: { temperature: 0.5 }, samplingPercentage: 100 });
    await expect(
      startShadowTest(current.aws.sageMaker, current.db, ENDPOINT, request, {
        actor: "ops",
        resourceNamePrefix: plane.resourcePrefix,
      }),
    ).rejects.toMatchObject(waiting);
    await expect(
      promoteShadow(current.aws.sageMaker, current.db, ENDPOINT, promotion, { actor: "ops" }),
    ).rejects.toMatchObject(waiting);

    await finishShadowPromotion(current, ENDPOINT, { pollSeconds: 1 });
    expect(storedPromotions(current.db)).toEqual([]);
    await plane.endpoints.settled(ENDPOINT);
    current.db.close();
  });

  it("a promotion the console stopped waiting for is finished when the console starts again", async () => {
    const stopped = consoleProcess();
    await shadowTestOf(stopped, 0.6);
    const shadowed = await stopped.aws.sageMaker.send(new DescribeEndpointCommand({ EndpointName: ENDPOINT }));
    const sinceId = lastAuditId(stopped.db);
    const result = await promoteShadow(stopped.aws.sageMaker, stopped.db, ENDPOINT, promotion, { actor: "alice" });
    const stopping = new AbortController();
    const abandoned = finishShadowPromotion(stopped, ENDPOINT, { pollSeconds: 1, signal: stopping.signal });
    stopping.abort();
    await expect(abandoned).rejects.toMatchObject({ name: "AbortError" });
    stopped.db.close();

    const started = consoleProcess();
    expect(storedPromotions(started.db)).toEqual([{ endpoint_name: ENDPOINT, requested_by: "alice", attempts: 1 }]);
    expect(updatesAudited(started.db, sinceId)).toEqual([]);
    await resumeShadowPromotions(started, { pollSeconds: 1 });
    expect(storedPromotions(started.db)).toEqual([]);
    expect(updatesAudited(started.db, sinceId)).toEqual([{ actor: "alice", result: "ok" }]);
    await plane.endpoints.settled(ENDPOINT);
    const promoted = await started.aws.sageMaker.send(new DescribeEndpointCommand({ EndpointName: ENDPOINT }));
    expect(promoted.ShadowProductionVariants).toBeUndefined();
    expect(promoted.EndpointConfigName).not.toBe(result.endpointConfigName);
    expect(promoted.EndpointConfigName).not.toBe(shadowed.EndpointConfigName);
    const config = await started.aws.sageMaker.send(
      new DescribeEndpointConfigCommand({ EndpointConfigName: promoted.EndpointConfigName }),
    );
    const model = await started.aws.sageMaker.send(
      new DescribeModelCommand({ ModelName: config.ProductionVariants?.[0]?.ModelName }),
    );
    expect(model.PrimaryContainer?.Environment?.[semifVariables.temperature]).toBe("0.6");
    expect(await temperatureOf(started.aws)).toBe(0.6);
    started.db.close();
  });

  it("a stored promotion whose endpoint was updated by someone else meanwhile is given up, not retried", async () => {
    const stopped = consoleProcess();
    await shadowTestOf(stopped, 0.3);
    const sinceId = lastAuditId(stopped.db);
    await promoteShadow(stopped.aws.sageMaker, stopped.db, ENDPOINT, promotion, { actor: "alice" });
    stopped.db.close();
    await plane.endpoints.settled(ENDPOINT);
    const elsewhere = updateRequestSchema.parse({
      change: { temperature: 0.2 },
      strategy: { kind: "all-at-once", waitSeconds: 0 },
      alarms: { kind: "none" },
    });
    await updateEndpoint(consoleClientsFor(plane), ENDPOINT, elsewhere);
    await plane.endpoints.settled(ENDPOINT);

    const started = consoleProcess();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    await resumeShadowPromotions(started, { pollSeconds: 1 });
    const lines = logged.mock.calls.map(([line]) => JSON.parse(String(line)));
    logged.mockRestore();
    expect(lines).toEqual([
      expect.objectContaining({
        endpoint: ENDPOINT,
        requestedBy: "alice",
        reason: expect.stringContaining("updated since"),
      }),
    ]);
    expect(storedPromotions(started.db)).toEqual([]);
    expect(updatesAudited(started.db, sinceId)).toEqual([]);
    expect(await temperatureOf(started.aws)).toBe(0.2);
    started.db.close();
  });
});

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
import { openDatabase } from "../store/database.ts";
import { sqliteStore } from "../store/sqlite-store.ts";
import type { Store } from "../store/store.ts";
import { resumeShadowPromotions, settledPromotions } from "./promotion-resume.ts";
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

/** The console's database file, which every console process here opens in turn (a stop, then a start). */
const openConsoleStore = () => sqliteStore(openDatabase(path.join(dataDir, "current.store")));

/** A console process: its clients and store, as `consoleContext()` hands them to routes and start-up work. */
const consoleProcess = () => {
  const aws = consoleClientsFor(plane);
  return { aws, store: openConsoleStore(), scope: { prefix: plane.resourcePrefix } };
};

const promotion = promoteShadowRequestSchema.parse({
  strategy: { kind: "all-at-once", waitSeconds: 0 },
  alarms: { kind: "none" },
});

/** A shadow test of `temperature`, running once the endpoint is InService with it. */
const shadowTestOf = async ({ aws, store }: ReturnType<typeof consoleProcess>, temperature: number) => {
  const request = shadowTestRequestSchema.parse({ change: { temperature }, samplingPercentage: 100 });
  await startShadowTest(aws.sageMaker, store, ENDPOINT, request, {
    actor: "ops",
    resourceNamePrefix: plane.resourcePrefix,
  });
  await plane.endpoints.settled(ENDPOINT);
};

const storedPromotions = (store: Store) =>
  store.selectFrom("shadow_promotions").select(["endpoint_name", "requested_by", "attempts"]).execute();

const updatesAudited = (store: Store, sinceId: number) =>
  store
    .selectFrom("audit_log")
    .select(["actor", "result"])
    .where("action", "=", "endpoint.update")
    .where("target", "=", ENDPOINT)
    .where("id", ">", sinceId)
    .execute();

const lastAuditId = async (store: Store) =>
  (
    await store
      .selectFrom("audit_log")
      .select((eb) => eb.fn.max("id").as("id"))
      .executeTakeFirst()
  )?.id ?? 0;

describe("a shadow test from the console", { timeout: 240_000 }, () => {
  it("starts beside production, ends back where it was, and promotes through the console's update", async () => {
    const clients = consoleClientsFor(plane);
    const store = openConsoleStore();
    const before = await clients.sageMaker.send(new DescribeEndpointCommand({ EndpointName: ENDPOINT }));
    const servingTemperature = await temperatureOf(clients);
    const options = { actor: "ops", resourceNamePrefix: plane.resourcePrefix };
    const request = shadowTestRequestSchema.parse({ change: { temperature: 0.7 }, samplingPercentage: 100 });

    const started = await startShadowTest(clients.sageMaker, store, ENDPOINT, request, options);
    await plane.endpoints.settled(ENDPOINT);
    const shadowed = await clients.sageMaker.send(new DescribeEndpointCommand({ EndpointName: ENDPOINT }));
    expect(shadowed.EndpointConfigName).toBe(started.endpointConfigName);
    expect(shadowed.ShadowProductionVariants?.map((variant) => variant.VariantName)).toEqual(["Shadow"]);
    // Callers still get production's answers while the candidate reads a copy.
    expect(await temperatureOf(clients)).toBe(servingTemperature);
    await expect(startShadowTest(clients.sageMaker, store, ENDPOINT, request, options)).rejects.toMatchObject({
      code: "conflict",
    });
    const update = updateRequestSchema.parse({
      change: { temperature: 0.9 },
      strategy: { kind: "all-at-once", waitSeconds: 0 },
      alarms: { kind: "none" },
    });
    await expect(updateEndpoint({ ...clients, store }, ENDPOINT, update)).rejects.toMatchObject({ code: "conflict" });

    const ended = await endShadowTest(clients.sageMaker, store, ENDPOINT);
    expect(ended.endpointConfigName).toBe(before.EndpointConfigName);
    await plane.endpoints.settled(ENDPOINT);
    const back = await clients.sageMaker.send(new DescribeEndpointCommand({ EndpointName: ENDPOINT }));
    expect(back.EndpointConfigName).toBe(before.EndpointConfigName);
    expect(back.ShadowProductionVariants).toBeUndefined();
    await expect(endShadowTest(clients.sageMaker, store, ENDPOINT)).rejects.toMatchObject({ code: "conflict" });

    await startShadowTest(clients.sageMaker, store, ENDPOINT, request, options);
    await plane.endpoints.settled(ENDPOINT);
    const result = await promoteShadow(clients.sageMaker, store, ENDPOINT, promotion, { actor: "ops" });
    expect(result.followedBy).toEqual({ change: { temperature: 0.7 }, strategy: "all-at-once" });
    await finishShadowPromotion({ aws: clients, store, scope: { prefix: plane.resourcePrefix } }, ENDPOINT, {
      pollSeconds: 1,
    });
    await plane.endpoints.settled(ENDPOINT);
    const promoted = await clients.sageMaker.send(new DescribeEndpointCommand({ EndpointName: ENDPOINT }));
    expect(promoted.ShadowProductionVariants).toBeUndefined();
    expect(promoted.EndpointConfigName).not.toBe(before.EndpointConfigName);
    expect(await temperatureOf(clients)).toBe(0.7);
    await store.destroy();
  });

  it("refuses a new shadow test or promotion while a promotion waits to start its update", async () => {
    const current = consoleProcess();
    await shadowTestOf(current, 0.4);
    await promoteShadow(current.aws.sageMaker, current.store, ENDPOINT, promotion, { actor: "ops" });
    const waiting = { code: "conflict", message: expect.stringContaining("shadow promotion waiting") };
    const request = shadowTestRequestSchema.parse({ change: { temperature: 0.5 }, samplingPercentage: 100 });
    await expect(
      startShadowTest(current.aws.sageMaker, current.store, ENDPOINT, request, {
        actor: "ops",
        resourceNamePrefix: plane.resourcePrefix,
      }),
    ).rejects.toMatchObject(waiting);
    await expect(
      promoteShadow(current.aws.sageMaker, current.store, ENDPOINT, promotion, { actor: "ops" }),
    ).rejects.toMatchObject(waiting);

    await finishShadowPromotion(current, ENDPOINT, { pollSeconds: 1 });
    expect(await storedPromotions(current.store)).toEqual([]);
    await plane.endpoints.settled(ENDPOINT);
    await current.store.destroy();
  });

  it("a promotion the console stopped waiting for is finished when the console starts again", async () => {
    const stopped = consoleProcess();
    await shadowTestOf(stopped, 0.6);
    const shadowed = await stopped.aws.sageMaker.send(new DescribeEndpointCommand({ EndpointName: ENDPOINT }));
    const sinceId = await lastAuditId(stopped.store);
    const result = await promoteShadow(stopped.aws.sageMaker, stopped.store, ENDPOINT, promotion, { actor: "alice" });
    const stopping = new AbortController();
    const abandoned = finishShadowPromotion(stopped, ENDPOINT, { pollSeconds: 1, signal: stopping.signal });
    stopping.abort();
    await expect(abandoned).rejects.toMatchObject({ name: "AbortError" });
    await stopped.store.destroy();

    const started = consoleProcess();
    expect(await storedPromotions(started.store)).toEqual([
      { endpoint_name: ENDPOINT, requested_by: "alice", attempts: 1 },
    ]);
    expect(await updatesAudited(started.store, sinceId)).toEqual([]);
    await resumeShadowPromotions(started, { pollSeconds: 1 });
    await settledPromotions();
    expect(await storedPromotions(started.store)).toEqual([]);
    expect(await updatesAudited(started.store, sinceId)).toEqual([{ actor: "alice", result: "ok" }]);
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
    await started.store.destroy();
  });

  it("a stored promotion whose endpoint was updated by someone else meanwhile is given up, not retried", async () => {
    const stopped = consoleProcess();
    await shadowTestOf(stopped, 0.3);
    const sinceId = await lastAuditId(stopped.store);
    await promoteShadow(stopped.aws.sageMaker, stopped.store, ENDPOINT, promotion, { actor: "alice" });
    await stopped.store.destroy();
    await plane.endpoints.settled(ENDPOINT);
    const elsewhere = updateRequestSchema.parse({
      change: { temperature: 0.2 },
      strategy: { kind: "all-at-once", waitSeconds: 0 },
      alarms: { kind: "none" },
    });
    const started = consoleProcess();
    await updateEndpoint({ ...consoleClientsFor(plane), store: started.store }, ENDPOINT, elsewhere);
    await plane.endpoints.settled(ENDPOINT);

    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    await resumeShadowPromotions(started, { pollSeconds: 1 });
    await settledPromotions();
    const lines = logged.mock.calls.map(([line]) => JSON.parse(String(line)));
    logged.mockRestore();
    expect(lines).toEqual([
      expect.objectContaining({
        endpoint: ENDPOINT,
        requestedBy: "alice",
        reason: expect.stringContaining("updated since"),
      }),
    ]);
    expect(await storedPromotions(started.store)).toEqual([]);
    expect(await updatesAudited(started.store, sinceId)).toEqual([]);
    expect(await temperatureOf(started.aws)).toBe(0.2);
    await started.store.destroy();
  });
});

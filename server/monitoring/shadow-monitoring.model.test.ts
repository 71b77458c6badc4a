import fs from "node:fs";
import path from "node:path";
import type { ControlPlane } from "@decision-console/local-aws";
import { routeDecision } from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitoringQuerySchema } from "../../contract/endpoints/monitoring.ts";
import { shadowTestRequestSchema } from "../../contract/endpoints/shadow-test.ts";
import {
  type CapturePlane,
  deployCapturedEndpoint,
  planeWithTinyModel,
} from "../../tests/support/endpoints/captured-endpoint.ts";
import { consoleClientsFor } from "../aws/local-console-clients.ts";
import { startShadowTest } from "../endpoints/shadow-test.ts";
import { invokeEndpoint } from "../invoke/invoke.ts";
import { openDatabase } from "../store/database.ts";
import { sqliteStore } from "../store/sqlite-store.ts";
import { readEndpointCaptures } from "./capture-reading.ts";
import { endpointMonitoring } from "./endpoint-monitoring.ts";

/**
 * A shadow test the console started, as the Monitoring view reports it: production's and the shadow's captured
 * answers to the same requests paired one to one, agreement and the probability difference equal to a recount
 * straight from the two variants' capture files.
 */
let setup: CapturePlane;
let plane: ControlPlane;
let dataDir: string;
const ENDPOINT = "dc-shadowed";

beforeAll(async () => {
  setup = await planeWithTinyModel("shadowed");
  ({ plane, dataDir } = setup);
  await deployCapturedEndpoint(setup, ENDPOINT);
  // Hotter: the candidate's probabilities differ, and its top option may too.
  const request = shadowTestRequestSchema.parse({ change: { temperature: 8 } });
  const store = sqliteStore(openDatabase(path.join(dataDir, "console.db")));
  await startShadowTest(consoleClientsFor(plane).sageMaker, store, ENDPOINT, request, {
    actor: "ops",
    resourceNamePrefix: plane.resourcePrefix,
  });
  await store.destroy();
  await plane.endpoints.settled(ENDPOINT);
}, 120_000);

afterAll(() => setup?.close());

const decision = (i: number) => ({
  decision: { ...routeDecision.decision, id: `r-${i}`, state: `${routeDecision.decision.state} (ticket ${i % 4})` },
});

function recordsOf(variant: string) {
  const objects = plane.objects.list(plane.bucket, `data-capture/${ENDPOINT}/${variant}/`, "", 1000);
  return objects.flatMap((object) =>
    fs
      .readFileSync(plane.objects.getObject(plane.bucket, object.key).file, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line)),
  );
}

async function shadowCaptured(count: number) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    await plane.capture.flush();
    if (recordsOf("Shadow").length >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe("the Monitoring view of a shadow test", { timeout: 180_000 }, () => {
  it("pairs each production answer with the shadow's answer to the same request and compares them", async () => {
    const clients = consoleClientsFor(plane);
    const invocations = 12;
    for (let i = 0; i < invocations; i++) await invokeEndpoint(clients.runtime, ENDPOINT, decision(i));
    await shadowCaptured(invocations);

    // The recount: records of equal input, in order, paired one to one.
    const chosenOf = (record: { captureData: { endpointOutput: { data: string } } }) => {
      const { option_ids, probabilities } = JSON.parse(record.captureData.endpointOutput.data).result;
      const top = Math.max(...probabilities);
      return { chosen: option_ids[probabilities.indexOf(top)] as string, top, probabilities, option_ids };
    };
    const waiting = new Map<string, ReturnType<typeof chosenOf>[]>();
    for (const record of recordsOf("Shadow")) {
      const key = record.captureData.endpointInput.data;
      waiting.set(key, [...(waiting.get(key) ?? []), chosenOf(record)]);
    }
    let pairs = 0;
    let agreeing = 0;
    let difference = 0;
    for (const record of recordsOf("AllTraffic")) {
      const shadow = waiting.get(record.captureData.endpointInput.data)?.shift();
      if (!shadow) continue;
      const production = chosenOf(record);
      pairs++;
      if (shadow.chosen === production.chosen) agreeing++;
      difference += Math.abs(production.top - shadow.probabilities[shadow.option_ids.indexOf(production.chosen)]);
    }

    const store = sqliteStore(openDatabase(path.join(dataDir, "console.db")));
    await readEndpointCaptures({ s3: clients.s3, store, artifactBucket: plane.bucket }, ENDPOINT);
    const view = await endpointMonitoring(
      {
        s3: clients.s3,
        sageMaker: clients.sageMaker,
        cloudWatch: clients.cloudWatch,
        store,
        artifactBucket: plane.bucket,
      },
      ENDPOINT,
      monitoringQuerySchema.parse({ window: "1h" }),
    );
    await store.destroy();
    expect(pairs).toBe(invocations);
    expect(view.variants).toEqual([
      { variant: "AllTraffic", decisions: invocations },
      { variant: "Shadow", decisions: invocations },
    ]);
    expect(view.shadow).toMatchObject({
      production: "AllTraffic",
      shadow: "Shadow",
      pairs,
      unpairedProduction: 0,
      unpairedShadow: 0,
    });
    expect(view.shadow?.agreement).toBeCloseTo(agreeing / pairs, 12);
    expect(view.shadow?.meanProbabilityDifference).toBeCloseTo(difference / pairs, 12);
    // The candidate is hotter: its probabilities differ from production's on every pair.
    expect(view.shadow?.meanProbabilityDifference).toBeGreaterThan(0);
    expect(view.shadow?.shadowLatency?.meanMs).toBeGreaterThan(0);
    expect(view.shadow?.calls).toEqual({ copies: invocations, failed: 0 });
  });
});

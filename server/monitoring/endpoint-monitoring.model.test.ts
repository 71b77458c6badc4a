import fs from "node:fs";
import type { ControlPlane } from "@decision-console/local-aws";
import { routeDecision } from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitoringQuerySchema } from "../../contract/endpoints/monitoring.ts";
import {
  type CapturePlane,
  deployCapturedEndpoint,
  planeWithTinyModel,
} from "../../tests/support/endpoints/captured-endpoint.ts";
import { openTestStore, type TestStore } from "../../tests/support/store/test-stores.ts";
import { consoleClientsFor } from "../aws/local-console-clients.ts";
import { invokeEndpoint } from "../invoke/invoke.ts";
import { readEndpointCaptures } from "./capture-reading.ts";
import { endpointMonitoring } from "./endpoint-monitoring.ts";
import { storeThreshold } from "./endpoint-threshold.ts";

/**
 * The Monitoring view's figures against a recount made straight from the capture files (not through the
 * monitoring code): decisions, chosen options and the share below a threshold, per decision kind, with the
 * console's own credentials and IAM policy reading the bucket.
 */
let setup: CapturePlane;
let plane: ControlPlane;
let opened: TestStore;
const ENDPOINT = "dc-watched";

beforeAll(async () => {
  setup = await planeWithTinyModel("monitoring");
  ({ plane } = setup);
  opened = await openTestStore("sqlite");
  await deployCapturedEndpoint(setup, ENDPOINT);
}, 120_000);

afterAll(async () => {
  await opened?.close();
  await setup?.close();
});

const priorityDecision = (i: number) => ({
  decision: {
    id: `priority-${i}`,
    state: `Ticket ${i}: the export page ${i % 3 === 0 ? "crashes for every user" : "is slow on Mondays"}.`,
    question: "How urgent is this ticket?",
    options: [
      { id: "p1", description: "Now" },
      { id: "p2", description: "Today" },
      { id: "p3", description: "This week" },
    ],
  },
});

type Recount = { decisions: number; below: number; chosen: Map<string, number> };

function recountFromFiles(threshold: number): Map<string, Recount> {
  const byQuestion = new Map<string, Recount>();
  const objects = plane.objects.list(plane.bucket, `data-capture/${ENDPOINT}/`, "", 1000);
  for (const object of objects) {
    const text = fs.readFileSync(plane.objects.getObject(plane.bucket, object.key).file, "utf8");
    for (const line of text.trim().split("\n")) {
      const record = JSON.parse(line);
      const input = JSON.parse(record.captureData.endpointInput.data);
      const output = JSON.parse(record.captureData.endpointOutput.data);
      const probabilities: number[] = output.result.probabilities;
      const top = Math.max(...probabilities);
      const chosen: string = output.result.option_ids[probabilities.indexOf(top)];
      const tally = byQuestion.get(input.decision.question) ?? { decisions: 0, below: 0, chosen: new Map() };
      tally.decisions++;
      if (top < threshold) tally.below++;
      tally.chosen.set(chosen, (tally.chosen.get(chosen) ?? 0) + 1);
      byQuestion.set(input.decision.question, tally);
    }
  }
  return byQuestion;
}

describe("the Monitoring view of a captured endpoint", { timeout: 180_000 }, () => {
  it("counts what the capture files hold, per decision kind, and reads each object once", async () => {
    const clients = consoleClientsFor(plane);
    for (let i = 0; i < 12; i++) {
      await invokeEndpoint(clients.runtime, ENDPOINT, i % 3 === 0 ? routeDecision : priorityDecision(i));
    }
    await plane.capture.flush();

    const deps = {
      s3: clients.s3,
      sageMaker: clients.sageMaker,
      cloudWatch: clients.cloudWatch,
      store: opened.store,
      artifactBucket: plane.bucket,
    };
    const threshold = 0.4;
    const query = monitoringQuerySchema.parse({ window: "1h", threshold: String(threshold) });
    await readEndpointCaptures(deps, ENDPOINT);
    const view = await endpointMonitoring(deps, ENDPOINT, query);
    const recount = recountFromFiles(threshold);

    expect(view.decisions).toBe(12);
    expect(view.source.moreToRead).toBe(false);
    expect(view.variants).toEqual([{ variant: "AllTraffic", decisions: 12 }]);
    expect(new Set(view.kinds.map((kind) => kind.question))).toEqual(new Set(recount.keys()));
    for (const kind of view.kinds) {
      const expected = recount.get(kind.question);
      expect(kind.decisions).toBe(expected?.decisions);
      expect(kind.belowThreshold).toBe(expected?.below);
      for (const { option, decisions } of kind.chosen) expect(decisions).toBe(expected?.chosen.get(option) ?? 0);
      expect(kind.topProbability.reduce((sum, bar) => sum + bar.decisions, 0)).toBe(kind.decisions);
      expect(kind.intervals.reduce((sum, interval) => sum + interval.decisions, 0)).toBe(kind.decisions);
      expect(kind.latency?.meanMs).toBeGreaterThan(0);
    }

    // A second look reads nothing new and counts nothing twice; new traffic is read on the next look.
    await readEndpointCaptures(deps, ENDPOINT);
    const again = await endpointMonitoring(deps, ENDPOINT, query);
    expect(again.source.newObjects).toBe(0);
    expect(again.decisions).toBe(12);
    await invokeEndpoint(clients.runtime, ENDPOINT, routeDecision);
    await plane.capture.flush();
    await readEndpointCaptures(deps, ENDPOINT);
    const later = await endpointMonitoring(deps, ENDPOINT, query);
    expect(later.source.newObjects).toBe(1);
    expect(later.decisions).toBe(13);
  });

  it("reads against the endpoint's stored threshold unless the query names one", async () => {
    const clients = consoleClientsFor(plane);
    const { store } = opened;
    const deps = {
      s3: clients.s3,
      sageMaker: clients.sageMaker,
      cloudWatch: clients.cloudWatch,
      store,
      artifactBucket: plane.bucket,
    };
    const unset = await endpointMonitoring(deps, ENDPOINT, monitoringQuerySchema.parse({ window: "1h" }));
    expect(unset.threshold).toBe(0.5);
    expect(unset.storedThreshold).toBeNull();

    await storeThreshold(store, ENDPOINT, 0.62, "ops");
    const stored = await endpointMonitoring(deps, ENDPOINT, monitoringQuerySchema.parse({ window: "1h" }));
    expect(stored.threshold).toBe(0.62);
    expect(stored.storedThreshold).toMatchObject({ threshold: 0.62, setBy: "ops" });
    const below = [...recountFromFiles(0.62).values()].reduce((sum, tally) => sum + tally.below, 0);
    expect(stored.belowThreshold).toBe(below);

    const asked = await endpointMonitoring(
      deps,
      ENDPOINT,
      monitoringQuerySchema.parse({ window: "1h", threshold: "0.4" }),
    );
    expect(asked.threshold).toBe(0.4);
    expect(asked.belowThreshold).toBe([...recountFromFiles(0.4).values()].reduce((sum, tally) => sum + tally.below, 0));
    expect(asked.storedThreshold?.threshold).toBe(0.62);
  });
});

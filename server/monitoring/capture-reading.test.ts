import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ControlPlane, startControlPlane } from "@decision-console/local-aws";
import { testStackFixture } from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { monitoringQuerySchema } from "../../contract/endpoints/monitoring.ts";
import { captureObjectKey, seededRandom, trafficDecision } from "../../tests/support/monitoring/capture-traffic.ts";
import { openTestStore, type TestStore } from "../../tests/support/store/test-stores.ts";
import { consoleClientsFor } from "../aws/local-console-clients.ts";
import { acquireLease, leaseHolder } from "../store/leases.ts";
import { captureProgress } from "./capture-progress.ts";
import { OBJECTS_PER_LOOK } from "./capture-reader.ts";
import { CAPTURE_READER_LEASE, captureReading, readAllCaptures, readEndpointCaptures } from "./capture-reading.ts";
import { endpointMonitoring } from "./endpoint-monitoring.ts";
import { captureTotals } from "./monitoring-store.ts";

/**
 * The background capture reader against local mode's bucket and a real store: the Monitoring view answers from the
 * store without reading S3, and the reader reads each object once, says how far it has got, and finds late objects.
 */
const ENDPOINT = "dc-read-in-background";
let dataDir: string;
let plane: ControlPlane;
let opened: TestStore;
let s3Calls: string[];
let written: number;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "capture-reading-"));
  plane = await startControlPlane({ dataDir, port: 0, fixture: testStackFixture(), waitForEndpoints: false });
}, 60_000);

afterAll(async () => {
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(async () => {
  await opened?.close();
  opened = await openTestStore("sqlite");
  for (const object of plane.objects.list(plane.bucket, `data-capture/${ENDPOINT}/`, "", 10_000)) {
    plane.objects.deleteObject(plane.bucket, object.key);
  }
  written = 0;
});

afterAll(async () => {
  await opened?.close();
});

function depsOf() {
  const clients = consoleClientsFor(plane);
  s3Calls = [];
  clients.s3.middlewareStack.add(
    (next, context) => (args) => {
      s3Calls.push(String(context.commandName));
      return next(args);
    },
    { step: "initialize" },
  );
  return {
    s3: clients.s3,
    sageMaker: clients.sageMaker,
    cloudWatch: clients.cloudWatch,
    store: opened.store,
    artifactBucket: plane.bucket,
    resourceNamePrefix: "dc-",
  };
}

/** Writes an object of `decisions` decisions starting at `at`. */
async function writeObject(at: Date, decisions = 2) {
  const random = seededRandom(written + 1);
  const lines = Array.from({ length: decisions }, (_, i) => trafficDecision(at, written + i, random).line);
  written += decisions;
  await plane.objects.putObject(
    plane.bucket,
    captureObjectKey(ENDPOINT, "AllTraffic", at),
    Buffer.from(lines.join("\n")),
    {
      contentType: "application/jsonlines",
    },
  );
}

const query = monitoringQuerySchema.parse({ window: "1h" });
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

describe("the Monitoring view", () => {
  it("answers from the store without reading S3, and says the reader has not looked yet", async () => {
    const deps = depsOf();
    await writeObject(minutesAgo(5));
    const view = await endpointMonitoring(deps, ENDPOINT, query);
    expect(s3Calls).toEqual([]);
    expect(view.decisions).toBe(0);
    expect(view.source).toMatchObject({ objectsRead: 0, moreToRead: false });
    expect(view.source.reading).toEqual({ unreadObjects: null, lookedAt: null });
  });
});

describe("the background capture reader", () => {
  it("reads each object once, and the view counts what it read", async () => {
    const deps = depsOf();
    for (const minutes of [30, 20, 10]) await writeObject(minutesAgo(minutes), 3);
    expect(await readAllCaptures(deps)).toEqual(new Map([[ENDPOINT, 3]]));
    expect(await readAllCaptures(deps)).toEqual(new Map([[ENDPOINT, 0]]));
    expect(await captureTotals(deps.store, ENDPOINT)).toEqual({ objects: 3, unreadable: 0 });
    s3Calls = [];
    const view = await endpointMonitoring(deps, ENDPOINT, query);
    expect(s3Calls).toEqual([]);
    expect(view.decisions).toBe(9);
    expect(view.source).toMatchObject({ objectsRead: 3, newObjects: 0, moreToRead: false });
    expect(view.source.reading.unreadObjects).toBe(0);
  });

  it("says how far it has got when a look leaves objects to read, and reads them on the next", async () => {
    const deps = depsOf();
    const objects = OBJECTS_PER_LOOK + 2;
    for (let i = 0; i < objects; i++) await writeObject(new Date(Date.now() - 50 * 60_000 + i * 1000), 1);
    const stopped = new AbortController();
    stopped.abort();
    expect(await readEndpointCaptures(deps, ENDPOINT, stopped.signal)).toBe(OBJECTS_PER_LOOK);
    const partway = await endpointMonitoring(deps, ENDPOINT, query);
    expect(partway.decisions).toBe(OBJECTS_PER_LOOK);
    expect(partway.source).toMatchObject({ objectsRead: OBJECTS_PER_LOOK, newObjects: OBJECTS_PER_LOOK });
    expect(partway.source.moreToRead).toBe(true);
    expect(partway.source.reading.unreadObjects).toBe(2);
    expect(partway.source.reading.lookedAt).not.toBeNull();

    expect(await readEndpointCaptures(deps, ENDPOINT)).toBe(2);
    const done = await endpointMonitoring(deps, ENDPOINT, query);
    expect(done.decisions).toBe(objects);
    expect(done.source).toMatchObject({ objectsRead: objects, newObjects: 2, moreToRead: false });
    expect(await captureProgress(deps.store, ENDPOINT)).toMatchObject({ unreadObjects: 0, objectsLastLook: 2 });
  }, 60_000);

  it("reads an object written late, named before the newest object read, and new ones", async () => {
    const deps = depsOf();
    await writeObject(minutesAgo(10));
    await readAllCaptures(deps);
    // SageMaker names an object by its first record's time but may write it minutes later.
    await writeObject(minutesAgo(12));
    await writeObject(minutesAgo(1));
    expect(await readAllCaptures(deps)).toEqual(new Map([[ENDPOINT, 2]]));
    expect((await endpointMonitoring(deps, ENDPOINT, query)).decisions).toBe(6);
  });

  it("is run by the replica holding its lease, which it gives back after the round", async () => {
    const deps = depsOf();
    await writeObject(minutesAgo(5));
    const reading = captureReading(() => deps, { ttlMs: 60_000 }, "replica-b");
    await acquireLease(deps.store, CAPTURE_READER_LEASE, "replica-a", 60_000);
    await reading.round(new AbortController().signal);
    expect(await captureTotals(deps.store, ENDPOINT)).toEqual({ objects: 0, unreadable: 0 });
    expect(await captureProgress(deps.store, ENDPOINT)).toBeNull();

    await acquireLease(deps.store, CAPTURE_READER_LEASE, "replica-a", 60_000, Date.now() - 120_000);
    await reading.round(new AbortController().signal);
    expect(await captureTotals(deps.store, ENDPOINT)).toEqual({ objects: 1, unreadable: 0 });
    expect(await leaseHolder(deps.store, CAPTURE_READER_LEASE)).toBeNull();
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openLocalDatabase } from "../database.ts";
import type { EndpointRunner } from "../endpoints/endpoint-runner.ts";
import type { SageMakerStore } from "../sagemaker-store.ts";
import { readActivities, scaleVariantRecorded } from "./scaling-activities.ts";
import type { TargetKey } from "./scaling-store.ts";

/** How activities are finished and kept, with a runner that reaches (or misses) the count it is asked for. */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-activities-store-"));
const db = openLocalDatabase(dataDir);
afterAll(() => {
  db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const key: TargetKey = ["sagemaker", "endpoint/e/variant/v", "sagemaker:variant:DesiredInstanceCount"];
const DAY_MS = 24 * 3600_000;

function deps(now: { ms: number }, reached: (desired: number) => number) {
  let count = 1;
  const store = {
    endpoint: () => ({ variants: [{ VariantName: "v", CurrentInstanceCount: count }], failureReason: "no capacity" }),
    updateEndpoint: () => {},
  } as unknown as SageMakerStore;
  const runner = {
    update: async (_: string, [change]: { DesiredInstanceCount: number }[]) => {
      now.ms += 30_000;
      count = reached(change?.DesiredInstanceCount ?? 0);
    },
  } as unknown as EndpointRunner;
  return { db, store, runner, clock: () => now.ms };
}

describe("scaleVariantRecorded", () => {
  it("ends an activity when the runner is done: Successful at the count asked for, Failed with its reason if not", async () => {
    const now = { ms: Date.UTC(2026, 0, 1) };
    await scaleVariantRecorded(
      deps(now, (n) => n),
      key,
      "e",
      "v",
      2,
      "minimum capacity was set to 2",
    );
    await scaleVariantRecorded(
      deps(now, () => 2),
      key,
      "e",
      "v",
      3,
      "maximum capacity was set to 3",
    );
    expect(readActivities(db, "sagemaker", key[1]).map((a) => [a.StatusCode, a.StatusMessage, a.EndTime])).toEqual([
      ["Failed", "Failed to set desired instance count to 3. no capacity", Date.UTC(2026, 0, 1, 0, 1) / 1000],
      [
        "Successful",
        "Successfully set desired instance count to 2. Change successfully fulfilled by sagemaker.",
        Date.UTC(2026, 0, 1, 0, 0, 30) / 1000,
      ],
    ]);
  });

  it("keeps six weeks of activities", async () => {
    const now = { ms: Date.UTC(2026, 0, 1) + 43 * DAY_MS };
    await scaleVariantRecorded(
      deps(now, (n) => n),
      key,
      "e",
      "v",
      1,
      "minimum capacity was set to 1",
    );
    expect(readActivities(db, "sagemaker").map((a) => a.Description)).toEqual(["Setting desired instance count to 1."]);
  });
});

import { expect, it } from "vitest";
import { DEFAULT_DECISION_THRESHOLD } from "../../contract/endpoints/monitoring.ts";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import { storedThreshold, storeThreshold, thresholdInUse } from "./endpoint-threshold.ts";

describeOnStores("an endpoint's stored threshold", (current) => {
  it("is none until stored, then the latest stored", async () => {
    const { store } = current();
    expect(await storedThreshold(store, "dc-watched")).toBeNull();
    const first = await storeThreshold(store, "dc-watched", 0.62, "ops", new Date("2026-12-04T10:00:00Z"));
    expect(first).toEqual({
      endpointName: "dc-watched",
      threshold: 0.62,
      setBy: "ops",
      setAt: "2026-12-04T10:00:00.000Z",
    });
    const second = await storeThreshold(store, "dc-watched", 0.4, "ann", new Date("2026-12-04T11:00:00Z"));
    expect(second).toEqual({
      endpointName: "dc-watched",
      threshold: 0.4,
      setBy: "ann",
      setAt: "2026-12-04T11:00:00.000Z",
    });
    expect(await storedThreshold(store, "dc-watched")).toEqual(second);
    expect(await storedThreshold(store, "dc-other")).toBeNull();
  });
});

describeOnStores("the threshold in use on an endpoint", (current) => {
  it("is the default, kept by nobody, until a team keeps one", async () => {
    const { store } = current();
    expect(await thresholdInUse(store, "dc-fresh")).toEqual({
      endpointName: "dc-fresh",
      threshold: DEFAULT_DECISION_THRESHOLD,
      kept: null,
    });
  });

  it("is the kept threshold, with who kept it and when", async () => {
    const { store } = current();
    await storeThreshold(store, "dc-kept", 0.73, "ops", new Date("2026-12-04T10:00:00Z"));
    expect(await thresholdInUse(store, "dc-kept")).toEqual({
      endpointName: "dc-kept",
      threshold: 0.73,
      kept: { setBy: "ops", setAt: "2026-12-04T10:00:00.000Z" },
    });
  });
});

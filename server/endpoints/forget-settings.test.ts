import { expect, it } from "vitest";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import { endpointBaselines } from "../monitoring/drift-store.ts";
import { storedThreshold, storeThreshold } from "../monitoring/endpoint-threshold.ts";
import type { Store } from "../store/store.ts";
import { newestEvaluationLink, recordEvaluationLink } from "./evaluation-link.ts";
import { forgetEndpointSettings } from "./forget-settings.ts";

const DELETED = "dc-triage";
/** Another endpoint, and one whose name starts with the deleted one's: both keep everything. */
const KEPT = ["dc-other", "dc-triage-2"];

async function settle(store: Store, endpointName: string) {
  await recordEvaluationLink(store, endpointName, `run-${endpointName}-a`, { why: "deployed", by: "ann" });
  await recordEvaluationLink(store, endpointName, `run-${endpointName}-b`, { why: "chosen", by: "bob" });
  await storeThreshold(store, endpointName, 0.7, "ann");
  for (const kind of ["k1", "k2"]) {
    await store
      .insertInto("drift_baselines")
      .values({
        endpoint_name: endpointName,
        kind,
        question: "Urgent?",
        options: JSON.stringify(["y", "n"]),
        option_counts: JSON.stringify([3, 1]),
        top_bins: JSON.stringify(Array.from({ length: 20 }, () => 0)),
        decisions: 4,
        source: "evaluation run r",
        set_by: "ann",
        set_at: new Date().toISOString(),
      })
      .execute();
  }
}

describeOnStores("forgetting a deleted endpoint's settings", (current) => {
  it("forgets its evaluation links, threshold and drift baselines, and nothing of any other endpoint", async () => {
    const { store } = current();
    for (const name of [DELETED, ...KEPT]) await settle(store, name);
    expect(await forgetEndpointSettings(store, DELETED)).toEqual({
      evaluationLinks: 2,
      threshold: true,
      driftBaselines: 2,
    });
    expect(await newestEvaluationLink(store, DELETED)).toBeNull();
    expect(await storedThreshold(store, DELETED)).toBeNull();
    expect(await endpointBaselines(store, DELETED)).toEqual([]);
    for (const name of KEPT) {
      expect(await newestEvaluationLink(store, name)).toMatchObject({ runId: `run-${name}-b` });
      expect(await storedThreshold(store, name)).toMatchObject({ threshold: 0.7 });
      expect((await endpointBaselines(store, name)).map((baseline) => baseline.kind)).toEqual(["k1", "k2"]);
    }
  });

  it("says nothing was forgotten for an endpoint the console kept nothing for", async () => {
    const { store } = current();
    expect(await forgetEndpointSettings(store, "dc-never-set")).toEqual({
      evaluationLinks: 0,
      threshold: false,
      driftBaselines: 0,
    });
  });
});

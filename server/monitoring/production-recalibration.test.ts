import { describe, expect, it } from "vitest";
import type { RealisedLabel } from "./ground-truth-store.ts";
import { productionRecalibration, servedTemperature } from "./production-recalibration.ts";

const OPTIONS = ["yes", "no"];
const optionsOf = (kind: string) => (kind === "k" ? OPTIONS : undefined);

/** `count` decisions that chose yes at `top`, every `wrongEvery`-th of them labelled no. */
function labels(count: number, top: number, wrongEvery: number): RealisedLabel[] {
  return Array.from({ length: count }, (_, i) => ({
    variant: "AllTraffic",
    kind: "k",
    atMs: i,
    chosen: "yes",
    probabilities: [top, 1 - top],
    label: i % wrongEvery === 0 ? "no" : "yes",
    labelledAtMs: i + 1,
  }));
}

describe("recalibration from production labels", () => {
  it("offers the served temperature times the fitted one when overconfident decisions improve on held-out labels", () => {
    // 97% confident, 67% right: the fit softens the probabilities (T > 1).
    const recalibration = productionRecalibration(labels(300, 0.97, 3), optionsOf, 1.5);
    expect(recalibration?.fit.temperature).toBeGreaterThan(1);
    expect(recalibration?.fit.heldOut?.improves).toBe(true);
    expect(recalibration?.offeredTemperature).toBe(Number((1.5 * (recalibration?.fit.temperature ?? 0)).toFixed(3)));
  });

  it("offers nothing when too few labels leave no held-out check", () => {
    const recalibration = productionRecalibration(labels(6, 0.97, 3), optionsOf, 1);
    expect(recalibration?.fit.heldOut).toBeNull();
    expect(recalibration?.offeredTemperature).toBeNull();
  });

  it("has nothing to fit without labels", () => {
    expect(productionRecalibration([], optionsOf, 1)).toBeNull();
  });

  it("reads the served temperature from the model's SEMIF_TEMPERATURE, else the adapter's default of 1", () => {
    expect(servedTemperature({ PrimaryContainer: { Environment: { SEMIF_TEMPERATURE: "1.7" } } } as never)).toBe(1.7);
    expect(servedTemperature({ PrimaryContainer: { Environment: {} } } as never)).toBe(1);
    expect(servedTemperature(null)).toBe(1);
  });
});

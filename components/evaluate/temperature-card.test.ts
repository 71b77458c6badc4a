import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { TemperatureFit } from "@/contract/evaluate/metrics.ts";
import { TemperatureCard } from "./temperature-card.tsx";

const fitWith = (heldOut: TemperatureFit["heldOut"]): TemperatureFit => ({
  temperature: 0.4,
  logLossBefore: 0.6,
  logLossAfter: 0.5,
  eceBefore: 0.033,
  eceAfter: 0.02,
  items: 10,
  atLimit: null,
  heldOut,
});
const card = (value: TemperatureFit) =>
  renderToStaticMarkup(createElement(TemperatureCard, { fit: value, endpointName: "dc-smol" }));

describe("the temperature card", () => {
  it("offers the temperature with the held-out figures beside it when they improve", () => {
    const html = card(
      fitWith({ items: 40, logLossBefore: 0.7, logLossAfter: 0.55, eceBefore: 0.12, eceAfter: 0.04, improves: true }),
    );
    expect(html).toContain("Held-out ECE");
    expect(html).toContain("0.120 → 0.040");
    expect(html).toContain("Update this endpoint with 0.4");
    expect(html).toContain("Deploy with temperature 0.4");
  });

  it("does not offer a temperature that makes held-out items worse, and says why", () => {
    const html = card(
      fitWith({ items: 10, logLossBefore: 0.6, logLossAfter: 0.9, eceBefore: 0.033, eceAfter: 0.227, improves: false }),
    );
    expect(html).toContain("0.033 → 0.227");
    expect(html).toContain("makes calibration worse");
    expect(html).not.toContain("Update this endpoint with");
    expect(html).not.toContain("Deploy with temperature");
  });

  it("does not offer a temperature it could not check on held-out items", () => {
    const html = card(fitWith(null));
    expect(html).toContain("Too few items");
    expect(html).not.toContain("Update this endpoint with");
  });
});

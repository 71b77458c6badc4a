import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { endpointHealth } from "@/contract/endpoints/health.ts";
import { HealthBadgeView } from "./health-badge.tsx";

const at = "2026-12-07T10:00:00.000Z";
const failing = endpointHealth(
  [
    { metric: "Invocations", stat: "Sum", unit: "Count", points: [{ at, value: 12 }] },
    { metric: "Invocation5XXErrors", stat: "Sum", unit: "Count", points: [{ at, value: 12 }] },
  ],
  [{ name: "dc-a-rollback-5xx", state: "ALARM" }],
);

describe("the health badge", () => {
  it("is red, not green, while an alarm is in ALARM, and says how many calls failed", () => {
    const html = renderToStaticMarkup(createElement(HealthBadgeView, { health: failing }));
    expect(html).toContain('data-health="alarm"');
    expect(html).toContain("bg-red-50");
    expect(html).not.toContain("bg-green-50");
    expect(html).toContain("1 alarm in ALARM; 100% of 12 invocations failed in 15 min");
  });

  it("is green when calls succeed and no alarm is in ALARM", () => {
    const health = endpointHealth(
      [{ metric: "Invocations", stat: "Sum", unit: "Count", points: [{ at, value: 5 }] }],
      [],
    );
    const html = renderToStaticMarkup(createElement(HealthBadgeView, { health }));
    expect(html).toContain("bg-green-50");
    expect(html).toContain("Healthy");
  });
});

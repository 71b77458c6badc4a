import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { EndpointAlarm } from "@/contract/endpoints/alarms.ts";
import { AlarmsList } from "./alarms-list.tsx";

const guard: EndpointAlarm = {
  name: "dc-demo-rollback-5xx",
  kind: "rollback-guard",
  condition: "Sum of Invocation5XXErrors > 0 over 1 × 60 s",
  state: "ALARM",
  stateReason: "5XX in the canary",
  stateUpdatedAt: "2026-12-01T22:10:00.000Z",
  history: [
    { at: "2026-12-01T22:10:00.000Z", summary: "Alarm updated from OK to ALARM" },
    { at: "2026-12-01T22:00:00.000Z", summary: "Alarm updated from INSUFFICIENT_DATA to OK" },
  ],
};

describe("the endpoint page's alarms", () => {
  it("shows each alarm's kind, condition, state and state changes", () => {
    const html = renderToStaticMarkup(
      createElement(AlarmsList, {
        alarms: [
          guard,
          {
            ...guard,
            name: "dc-demo-has-backlog-without-capacity",
            kind: "scale-to-zero-wake-up",
            state: "OK",
            history: [],
          },
        ],
      }),
    );
    expect(html).toContain("dc-demo-rollback-5xx");
    expect(html).toContain("Rollback guard");
    expect(html).toContain("Scale-to-zero wake-up");
    expect(html).toContain("Sum of Invocation5XXErrors &gt; 0 over 1 × 60 s");
    expect(html).toContain(">ALARM<");
    expect(html).toContain("5XX in the canary");
    expect(html).toContain("State changes (2)");
    expect(html).toContain("Alarm updated from OK to ALARM");
  });

  it("says when the console has created none", () => {
    expect(renderToStaticMarkup(createElement(AlarmsList, { alarms: [] }))).toContain("None.");
  });
});

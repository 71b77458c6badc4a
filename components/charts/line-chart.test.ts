import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { gapsBetween, LineChart } from "./line-chart.tsx";

function render(points: { at: string; value: number }[]) {
  return renderToStaticMarkup(createElement(LineChart, { title: "Invocations", unit: "count", points }));
}

describe("line chart", () => {
  it("draws a single period as a visible point, not as an empty chart", () => {
    const html = render([{ at: "2026-11-30T20:10:00.000Z", value: 3 }]);
    expect(html).not.toContain("No data yet");
    expect(html.match(/<circle/g)).toHaveLength(1);
    expect(html).toContain("latest 3 count");
  });

  it("labels its axes without exponents and ticks the whole window in local time", () => {
    const html = renderToStaticMarkup(
      createElement(LineChart, {
        title: "Model latency",
        unit: "ms",
        points: [
          { at: "2026-12-01T21:10:00.000Z", value: 350 },
          { at: "2026-12-01T22:10:00.000Z", value: 1050.3 },
        ],
        from: "2026-12-01T21:05:00.000Z",
        to: "2026-12-02T00:05:00.000Z",
      }),
    );
    expect(html).not.toMatch(/\de[+-]\d/);
    expect(html).toContain(">1,050<");
    const clockTicks = html.match(/>\d{2}:00</g) ?? [];
    expect(clockTicks.length).toBeGreaterThanOrEqual(2);
  });

  it("says there is no data when there are no points", () => {
    const html = render([]);
    expect(html).toContain("No data yet");
    expect(html).not.toContain("<circle");
  });

  it("draws missing periods as a gap, not as a straight line across them", () => {
    const at = (minute: number) => new Date(Date.parse("2026-12-01T21:00:00.000Z") + minute * 60_000).toISOString();
    const points = [0, 1, 2, 14, 15].map((minute) => ({ at: at(minute), value: 5 }));
    const path = render(points).match(/<path d="([^"]+)"/)?.[1] ?? "";
    expect(path.match(/M/g)).toHaveLength(2);
    expect(path.match(/L/g)).toHaveLength(3);
  });

  it("reads a gap against the period when it is given", () => {
    expect(gapsBetween([0, 60_000, 120_000, 300_000], 60)).toEqual([false, false, false, true]);
    expect(gapsBetween([0, 300_000, 600_000], 300)).toEqual([false, false, false]);
  });
});

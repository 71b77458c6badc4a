import fs from "node:fs";
import path from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { browserSources, repoRoot } from "../../tests/support/browser-sources.ts";
import { Timestamp, timestampText } from "./timestamp.tsx";

const root = repoRoot;

describe("the console's one timestamp format", () => {
  it("writes the date and the 24-hour time with seconds in the reader's time zone, whatever the locale", () => {
    expect(timestampText("2026-12-01T09:05:07Z", "UTC")).toBe("2026-12-01 09:05:07");
    expect(timestampText("2026-12-01T21:05:07.900Z", "UTC")).toBe("2026-12-01 21:05:07");
    expect(timestampText("2026-12-01T21:05:07Z", "Asia/Kolkata")).toBe("2026-12-02 02:35:07");
    expect(timestampText("2026-07-01T00:00:00Z", "America/New_York")).toBe("2026-06-30 20:00:00");
  });

  it("accepts epoch milliseconds and says so when there is no time to show", () => {
    expect(timestampText(Date.UTC(2026, 0, 2, 3, 4, 5), "UTC")).toBe("2026-01-02 03:04:05");
    expect(timestampText(null)).toBe("—");
    expect(timestampText("not a date")).toBe("—");
  });

  it("never wraps between the date and the time (update timelines, narrow screens)", () => {
    const html = renderToStaticMarkup(createElement(Timestamp, { at: "2026-12-01T09:05:07Z", timeZone: "UTC" }));
    expect(html).toMatch(/<time [^>]*class="whitespace-nowrap"/);
  });

  it("renders as a <time> carrying the machine-readable instant", () => {
    const html = renderToStaticMarkup(createElement(Timestamp, { at: "2026-12-01T09:05:07Z", timeZone: "UTC" }));
    expect(html).toBe('<time dateTime="2026-12-01T09:05:07.000Z" class="whitespace-nowrap">2026-12-01 09:05:07</time>');
  });

  it("is the only way the browser code writes a date or a time", () => {
    const writers = browserSources()
      .filter((file) => /\.toLocale(String|DateString|TimeString)\(/.test(fs.readFileSync(file, "utf8")))
      .map((file) => path.relative(root, file));
    // The chart's time axis labels its ticks with the clock or the weekday alone, not a timestamp.
    expect(writers).toEqual(["components/charts/time-axis.ts"]);
  });
});

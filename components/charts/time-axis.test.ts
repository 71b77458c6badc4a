import { describe, expect, it } from "vitest";
import { timeTicks } from "./time-axis.ts";

const hour = 3_600_000;
const start = Date.UTC(2026, 11, 1, 21, 7);

describe("a chart's time axis", () => {
  it("ticks a 3-hour window on whole local hours, labelled with the local clock", () => {
    const ticks = timeTicks(start, start + 3 * hour);
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    expect(ticks.length).toBeLessThanOrEqual(4);
    for (const tick of ticks) {
      expect(new Date(tick.value).getMinutes()).toBe(0);
      expect(tick.value).toBeGreaterThanOrEqual(start);
      expect(tick.text).toMatch(/^\d{2}:00$/);
      const local = new Date(tick.value);
      expect(tick.text).toBe(`${String(local.getHours()).padStart(2, "0")}:00`);
    }
  });

  it("ticks an hour on quarter hours and a week on local days", () => {
    for (const tick of timeTicks(start, start + hour)) expect(new Date(tick.value).getMinutes() % 15).toBe(0);
    const week = timeTicks(start, start + 7 * 24 * hour);
    expect(week.length).toBeGreaterThanOrEqual(2);
    expect(week.length).toBeLessThanOrEqual(4);
    for (const tick of week) {
      expect(new Date(tick.value).getHours()).toBe(0);
      expect(tick.text).toMatch(/\d/);
    }
  });
});

import { describe, expect, it } from "vitest";
import { asyncWaitStatus } from "./async-wait.ts";

describe("the asynchronous playground's wait", () => {
  it("says the endpoint is at 0 instances and a cold start is under way, with the expected wait", () => {
    const status = asyncWaitStatus({ instanceCount: 0, scaleToZero: true, coldStartSeconds: 240, waitedMs: 60_000 });
    expect(status.title).toContain("0 instances");
    expect(status.title).toContain("Cold start");
    // The wake-up alarm's 2 one-minute periods, then the 4 minutes the last start from zero took.
    expect(status.text).toContain("after 2 min");
    expect(status.text).toContain("took 4 min");
    expect(status.text).toContain("about 6 min in all (5 min more)");
  });

  it("gives the alarm's delay as the least wait when no start from zero was seen yet", () => {
    const status = asyncWaitStatus({ instanceCount: 0, scaleToZero: true, coldStartSeconds: null, waitedMs: 5_000 });
    expect(status.text).toContain("at least 2 min");
  });

  it("says no instance will come without scale to zero, and only queued or running with instances", () => {
    expect(
      asyncWaitStatus({ instanceCount: 0, scaleToZero: false, coldStartSeconds: null, waitedMs: 0 }).text,
    ).toContain("until someone scales it out");
    const running = asyncWaitStatus({ instanceCount: 1, scaleToZero: true, coldStartSeconds: 240, waitedMs: 3_000 });
    expect(running.text).toBe("Queued or running (3 s so far).");
  });
});

import { describe, expect, it } from "vitest";
import { activityRefreshMs, invocationsQuery, logsQuery } from "./endpoint-activity-queries.ts";

describe("the endpoint page's live activity", () => {
  it("looks up the recent invocations again while the page is open (a canary's rows appear without a reload)", () => {
    expect(invocationsQuery("dc-demo").refetchInterval).toBe(activityRefreshMs);
    expect(activityRefreshMs).toBeGreaterThan(0);
    expect(activityRefreshMs).toBeLessThanOrEqual(15_000);
  });

  it("tails the log lines at the same pace", () => {
    expect(logsQuery("dc-demo", 60, "").refetchInterval).toBe(activityRefreshMs);
  });
});

import { describe, expect, it } from "vitest";
import { runProbe } from "./probe.ts";

/**
 * A bounded run of the security probe (`npm run probe:security` runs more inputs per operation): with the console's
 * key, every operation local mode serves gets another team's names and a hostile input, and another team's keys in
 * the bucket are read, written, deleted and listed. Nothing may answer 5xx, crash, or let the console touch another
 * team's objects.
 */
describe("the security probe of local mode with the console's key", () => {
  it("gets only refusals or answers, never a 5xx or a crash, and no cross-team object access", async () => {
    const report = await runProbe(2);
    console.log(
      `security probe: ${report.requests} requests, ${report.refused} refused, ${report.accepted} answered, ${report.unsent} not sendable`,
    );
    expect(report.requests).toBeGreaterThan(100);
    expect(report.serverErrors).toEqual([]);
    expect(report.crossTeamAccepted).toEqual([]);
    expect(report.crashes).toBe(0);
    expect(report.healthyAfter).toBe(true);
  }, 300_000);
});

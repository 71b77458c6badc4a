import { describe, expect, it } from "vitest";
import { LONGEST_BUSY_WAIT_MS } from "../../contract/invoke/invocation-budget.ts";
import { realSleep } from "../aws/sleep.ts";
import { type BusyRetryPolicy, defaultBusyRetryPolicy, isBusyAnswer, retryWhileBusy } from "./busy-retry.ts";

const busyBody = { error: "model is busy; retry the request", retryable: true };

describe("the one busy-retry policy", () => {
  it("retries only the container's 503 that says retryable, whether parsed or as text", () => {
    expect(isBusyAnswer(503, busyBody)).toBe(true);
    expect(isBusyAnswer(503, JSON.stringify(busyBody))).toBe(true);
    expect(isBusyAnswer(503, { error: "model is loading; retry the request", retryable: true })).toBe(true);
    expect(isBusyAnswer(503, { error: "Service Unavailable" })).toBe(false);
    expect(isBusyAnswer(503, "<html>503</html>")).toBe(false);
    expect(isBusyAnswer(500, busyBody)).toBe(false);
    expect(isBusyAnswer(undefined, busyBody)).toBe(false);
  });

  it("tries again with backoff until the answer is not busy, and counts the retries", async () => {
    const sleeps: number[] = [];
    const policy: BusyRetryPolicy = {
      ...defaultBusyRetryPolicy,
      random: () => 0.5,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    };
    const answers = [503, 503, 200];
    const { value, retries } = await retryWhileBusy(
      async () => answers.shift() as number,
      (status) => status === 503,
      policy,
    );
    expect([value, retries, sleeps]).toEqual([200, 2, [50, 100]]);
  });

  it("gives back the last busy answer once the retries are spent", async () => {
    const policy = { ...defaultBusyRetryPolicy, maxRetries: 3, sleep: async () => {} };
    let attempts = 0;
    const { value, retries } = await retryWhileBusy(
      async () => {
        attempts += 1;
        return "busy";
      },
      () => true,
      policy,
    );
    expect([value, retries, attempts]).toEqual(["busy", 3, 4]);
  });

  it("waits no longer in all than the invocation budget's LONGEST_BUSY_WAIT_MS, however the jitter falls", async () => {
    const sleeps: number[] = [];
    const policy: BusyRetryPolicy = {
      ...defaultBusyRetryPolicy,
      random: () => 1 - Number.EPSILON,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    };
    await retryWhileBusy(
      async () => "busy",
      () => true,
      policy,
    );
    const waited = sleeps.reduce((total, ms) => total + ms, 0);
    expect(sleeps).toHaveLength(policy.maxRetries);
    expect(waited).toBeLessThanOrEqual(LONGEST_BUSY_WAIT_MS);
    expect(waited).toBeGreaterThanOrEqual(LONGEST_BUSY_WAIT_MS - policy.maxRetries);
  });

  it("stops waiting when the caller aborts", async () => {
    const controller = new AbortController();
    const policy = { ...defaultBusyRetryPolicy, baseDelayMs: 60_000, maxDelayMs: 60_000, random: () => 0.99 };
    const run = retryWhileBusy(
      async () => "busy",
      () => true,
      policy,
      controller.signal,
    );
    setTimeout(() => controller.abort(new Error("shutting down")), 10);
    await expect(run).rejects.toThrow("shutting down");
    await expect(realSleep(1, AbortSignal.abort(new Error("already")))).rejects.toThrow("already");
  });
});

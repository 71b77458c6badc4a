import type { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openTestStore } from "../../tests/support/store/test-stores.ts";
import { startDriftPublisher } from "./drift.ts";

afterEach(() => {
  vi.useRealTimers();
});

describe("the drift publisher's schedule", () => {
  it("runs a round every 5 minutes until stopped, and sends nothing while no kind has a baseline", async () => {
    // A test of the timer: SQLite's store answers without I/O, so each round is over before the clock moves on.
    const { store, close } = await openTestStore("sqlite");
    vi.useFakeTimers();
    const send = vi.fn();
    const deps = vi.fn(() => ({ store, cloudWatch: { send } as unknown as CloudWatchClient }));
    const stop = startDriftPublisher(deps);
    await vi.advanceTimersByTimeAsync(299_000);
    expect(deps).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(deps).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(deps).toHaveBeenCalledTimes(3);
    stop();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(deps).toHaveBeenCalledTimes(3);
    expect(send).not.toHaveBeenCalled();
    vi.useRealTimers();
    await close();
  });
});

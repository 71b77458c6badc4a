import type { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openTestStore } from "../../tests/support/store/test-stores.ts";
import { startBackgroundWork } from "../background/background-work.ts";
import { leaseHolder } from "../store/leases.ts";
import { DRIFT_PUBLISHER_LEASE, driftPublishing } from "./drift.ts";

afterEach(() => {
  vi.useRealTimers();
});

describe("the drift publisher's schedule", () => {
  it("runs a round at start and every 5 minutes until stopped, and sends nothing while no kind has a baseline", async () => {
    // A test of the timer: SQLite's store answers without I/O, so each round is over before the clock moves on.
    const { store, close } = await openTestStore("sqlite");
    vi.useFakeTimers();
    const send = vi.fn();
    const deps = vi.fn(() => ({ store, cloudWatch: { send } as unknown as CloudWatchClient }));
    const work = startBackgroundWork([driftPublishing(deps, "replica-a")]);
    await vi.advanceTimersByTimeAsync(1);
    expect(deps).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(298_000);
    expect(deps).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(deps).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(deps).toHaveBeenCalledTimes(4);
    await work.stop();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(deps).toHaveBeenCalledTimes(4);
    expect(send).not.toHaveBeenCalled();
    vi.useRealTimers();
    await close();
  });

  it("is kept by one replica: another publishes only once the first has stopped renewing for 10 minutes", async () => {
    const { store, close } = await openTestStore("sqlite");
    try {
      const send = vi.fn();
      const deps = () => ({ store, cloudWatch: { send } as unknown as CloudWatchClient });
      const published: string[] = [];
      const replica = (holder: string) => {
        const task = driftPublishing(deps, holder);
        return async () => {
          await task.round(new AbortController().signal);
          if ((await leaseHolder(store, DRIFT_PUBLISHER_LEASE)) === holder) published.push(holder);
        };
      };
      const [a, b] = [replica("a"), replica("b")];
      await a();
      await b();
      await a();
      expect(published).toEqual(["a", "a"]);
      await store
        .updateTable("leases")
        .set({ expires_at_ms: Date.now() - 1 })
        .execute();
      await b();
      expect(published).toEqual(["a", "a", "b"]);
    } finally {
      await close();
    }
  });
});

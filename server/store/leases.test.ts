import { expect, it, vi } from "vitest";
import { describeOnStores, openTestStore, testPostgresUrl } from "../../tests/support/store/test-stores.ts";
import {
  acquireLease,
  holdLease,
  leaseHolder,
  releaseLease,
  releaseLeasesOf,
  renewLease,
  replicaId,
} from "./leases.ts";

describeOnStores("leases", (current) => {
  it("one holder at a time; the holder may take it again, renewing it", async () => {
    const { store } = current();
    expect(await acquireLease(store, "run:1", "a", 10_000, 1_000)).toBe(true);
    expect(await acquireLease(store, "run:1", "b", 10_000, 2_000)).toBe(false);
    expect(await acquireLease(store, "run:1", "a", 10_000, 3_000)).toBe(true);
    expect(await leaseHolder(store, "run:1", 12_000)).toBe("a");
    expect(await leaseHolder(store, "run:1", 13_000)).toBeNull();
  });

  it("an expired lease goes to whoever asks next", async () => {
    const { store } = current();
    await acquireLease(store, "run:1", "a", 10_000, 1_000);
    expect(await acquireLease(store, "run:1", "b", 10_000, 11_000)).toBe(true);
    expect(await renewLease(store, "run:1", "a", 10_000, 11_500)).toBe(false);
    expect(await leaseHolder(store, "run:1", 11_500)).toBe("b");
  });

  it("released leases are free at once; a replica releases all of its own and nobody else's", async () => {
    const { store } = current();
    await acquireLease(store, "x", "a", 60_000, 0);
    await acquireLease(store, "y", "a", 60_000, 0);
    await acquireLease(store, "z", "b", 60_000, 0);
    await releaseLease(store, "x", "b");
    expect(await leaseHolder(store, "x", 1)).toBe("a");
    expect(await releaseLeasesOf(store, "a")).toBe(2);
    expect(await acquireLease(store, "y", "c", 60_000, 1)).toBe(true);
    expect(await leaseHolder(store, "z", 1)).toBe("b");
  });

  it("of many replicas asking at once, exactly one gets it", async () => {
    const { store } = current();
    const outcomes = await Promise.all(
      Array.from({ length: 16 }, (_, i) => acquireLease(store, "contested", `r${i}`, 30_000, 5_000)),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(1);
  });

  it("a held lease is renewed while held and lost when another replica takes it over", async () => {
    const { store } = current();
    const held = await holdLease(store, "work", { ttlMs: 300, renewEveryMs: 50 }, "a");
    expect(held).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await leaseHolder(store, "work")).toBe("a");
    expect(await holdLease(store, "work", { ttlMs: 300 }, "b")).toBeNull();
    await store.updateTable("leases").set({ holder: "b" }).where("name", "=", "work").execute();
    await vi.waitFor(() => expect(held!.lost.aborted).toBe(true), { timeout: 2_000 });
    await held!.release();
    expect(await leaseHolder(store, "work")).toBe("b");
  });
});

it.skipIf("skipped" in testPostgresUrl())(
  "two stores on one PostgreSQL database (two replicas) contend for one lease: one wins",
  async () => {
    const first = await openTestStore("postgres");
    try {
      if (!("postgresUrl" in first.location)) throw new Error("not PostgreSQL");
      const { postgresStore } = await import("./postgres-store.ts");
      const second = postgresStore(first.location.postgresUrl);
      try {
        const outcomes = await Promise.all(
          Array.from({ length: 20 }, (_, i) => acquireLease(i % 2 ? second : first.store, "shared", `r${i}`, 30_000)),
        );
        expect(outcomes.filter(Boolean)).toHaveLength(1);
      } finally {
        await second.destroy();
      }
    } finally {
      await first.close();
    }
  },
);

it("this process's holder id names its host and pid", () => {
  expect(replicaId()).toMatch(new RegExp(`/${process.pid}/[0-9a-f]{8}$`));
  expect(replicaId()).toBe(replicaId());
});

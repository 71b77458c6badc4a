import { randomUUID } from "node:crypto";
import os from "node:os";
import type { Store } from "./store.ts";

/**
 * Leases on background work, in the store every console replica shares: a named piece of work (an evaluation
 * run, a promotion, the drift publisher) is done by the replica holding its unexpired lease. The holder renews it
 * while it works and releases it when done or shutting down; a replica that dies stops renewing, and once the
 * lease expires another takes the work over. Expiry is read on each replica's clock (NTP-synchronised hosts
 * differ by milliseconds; leases last tens of seconds).
 */

/** This process, as a lease holder: host, pid and a random part (pids repeat across hosts and restarts). */
export function replicaId(): string {
  const process_ = globalThis as { __consoleReplicaId?: string };
  process_.__consoleReplicaId ??= `${os.hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  return process_.__consoleReplicaId;
}

/**
 * Takes `name` for `holder` for `ttlMs` if nobody holds it, its lease has expired, or `holder` already holds it
 * (then it is renewed). One statement, so two replicas asking at once cannot both get it.
 */
export async function acquireLease(
  store: Store,
  name: string,
  holder: string,
  ttlMs: number,
  nowMs: number = Date.now(),
): Promise<boolean> {
  const result = await store
    .insertInto("leases")
    .values({ name, holder, expires_at_ms: nowMs + ttlMs, acquired_at: new Date(nowMs).toISOString() })
    .onConflict((conflict) =>
      conflict
        .column("name")
        .doUpdateSet((eb) => ({
          holder: eb.ref("excluded.holder"),
          expires_at_ms: eb.ref("excluded.expires_at_ms"),
          acquired_at: eb
            .case()
            .when("leases.holder", "=", holder)
            .then(eb.ref("leases.acquired_at"))
            .else(eb.ref("excluded.acquired_at"))
            .end(),
        }))
        .where((eb) => eb.or([eb("leases.holder", "=", holder), eb("leases.expires_at_ms", "<=", nowMs)])),
    )
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** Extends `holder`'s lease on `name`; false when it no longer holds it (expired and taken, or released). */
export async function renewLease(
  store: Store,
  name: string,
  holder: string,
  ttlMs: number,
  nowMs: number = Date.now(),
): Promise<boolean> {
  const result = await store
    .updateTable("leases")
    .set({ expires_at_ms: nowMs + ttlMs })
    .where("name", "=", name)
    .where("holder", "=", holder)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function releaseLease(store: Store, name: string, holder: string): Promise<void> {
  await store.deleteFrom("leases").where("name", "=", name).where("holder", "=", holder).execute();
}

/** Every lease `holder` has: what a replica gives up when it shuts down, so others need not wait for expiry. */
export async function releaseLeasesOf(store: Store, holder: string): Promise<number> {
  const result = await store.deleteFrom("leases").where("holder", "=", holder).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Who holds `name` now, or null when nobody does (never taken, released, or expired). */
export async function leaseHolder(store: Store, name: string, nowMs: number = Date.now()): Promise<string | null> {
  const row = await store
    .selectFrom("leases")
    .select("holder")
    .where("name", "=", name)
    .where("expires_at_ms", ">", nowMs)
    .executeTakeFirst();
  return row?.holder ?? null;
}

export interface HeldLease {
  /** Aborts when the lease is lost: a renewal found another holder, or the store could not be reached until expiry. */
  readonly lost: AbortSignal;
  /** Stops renewing and gives the lease up. */
  release(): Promise<void>;
}

export interface LeaseTiming {
  ttlMs: number;
  /** How often the holder renews; a third of the lease leaves two tries before it expires. */
  renewEveryMs?: number;
}

/**
 * Acquires `name` and keeps renewing it until released; null when someone else holds it. Work done under the lease
 * watches `lost`: a holder that cannot renew in time must stop, since another replica may be taking over.
 */
export async function holdLease(
  store: Store,
  name: string,
  timing: LeaseTiming,
  holder: string = replicaId(),
): Promise<HeldLease | null> {
  if (!(await acquireLease(store, name, holder, timing.ttlMs))) return null;
  const controller = new AbortController();
  let expiresAt = Date.now() + timing.ttlMs;
  let renewing: Promise<void> = Promise.resolve();
  const timer = setInterval(
    () => {
      renewing = renewLease(store, name, holder, timing.ttlMs).then(
        (held) => {
          if (held) expiresAt = Date.now() + timing.ttlMs;
          else controller.abort(new Error(`the lease on ${name} was taken over`));
        },
        (error: Error) => {
          if (Date.now() >= expiresAt) controller.abort(new Error(`the lease on ${name} expired: ${error.message}`));
        },
      );
    },
    timing.renewEveryMs ?? Math.max(1, Math.floor(timing.ttlMs / 3)),
  );
  timer.unref();
  controller.signal.addEventListener("abort", () => clearInterval(timer), { once: true });
  return {
    lost: controller.signal,
    async release() {
      clearInterval(timer);
      await renewing;
      if (!controller.signal.aborted) await releaseLease(store, name, holder);
    },
  };
}

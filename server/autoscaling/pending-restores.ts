import { setTimeout as sleep } from "node:timers/promises";
import { DescribeEndpointCommand, type SageMakerClient } from "@aws-sdk/client-sagemaker";
import type { Autoscaling } from "../../contract/endpoints/autoscaling.ts";
import { neverInServiceAgain } from "../../contract/endpoints/status.ts";
import { LONGEST_UPDATE_SECONDS } from "../../contract/endpoints/update.ts";
import { awsCall } from "../aws/errors.ts";
import { inProcessWork } from "../background/in-process-work.ts";
import { AppError } from "../http/app-error.ts";
import { holdLease, type LeaseTiming } from "../store/leases.ts";
import type { Store } from "../store/store.ts";
import { restoreAutoscaling, type ScalingClients } from "./variant-scaling.ts";

export type RestoreClients = ScalingClients & { sageMaker: SageMakerClient };

export interface RestoreWait {
  /** Seconds between DescribeEndpoint calls while the update runs. */
  pollSeconds?: number;
  signal?: AbortSignal;
  lease?: LeaseTiming;
}

/** Remembers, before the autoscaling is deregistered, what to register again once the update has ended. */
export async function recordPendingRestore(store: Store, endpoint: string, variant: string, saved: Autoscaling) {
  const row = {
    endpoint_name: endpoint,
    variant,
    autoscaling: JSON.stringify(saved),
    requested_at: new Date().toISOString(),
  };
  await store
    .insertInto("autoscaling_restores")
    .values(row)
    .onConflict((conflict) =>
      conflict.column("endpoint_name").doUpdateSet({ variant: row.variant, autoscaling: row.autoscaling }),
    )
    .execute();
}

export async function forgetPendingRestore(store: Store, endpoint: string): Promise<void> {
  await store.deleteFrom("autoscaling_restores").where("endpoint_name", "=", endpoint).execute();
}

/** The endpoints waiting for their autoscaling, oldest first. */
export async function pendingRestores(store: Store): Promise<string[]> {
  const rows = await store
    .selectFrom("autoscaling_restores")
    .select("endpoint_name")
    .orderBy("requested_at")
    .orderBy("endpoint_name")
    .execute();
  return rows.map((row) => row.endpoint_name);
}

/** Waits until the endpoint is InService again (updated or rolled back); why not, when it never will be. */
async function untilInService(sageMaker: SageMakerClient, endpoint: string, since: string, wait: RestoreWait) {
  const deadline = Date.parse(since) + LONGEST_UPDATE_SECONDS * 1000;
  for (;;) {
    try {
      const described = await awsCall(`endpoint "${endpoint}"`, () =>
        sageMaker.send(new DescribeEndpointCommand({ EndpointName: endpoint })),
      );
      const status = described.EndpointStatus ?? "";
      if (status === "InService") return null;
      if ((neverInServiceAgain as readonly string[]).includes(status)) return `the endpoint is ${status}`;
    } catch (error) {
      wait.signal?.throwIfAborted();
      if (error instanceof AppError && error.code === "not_found") return "the endpoint is gone";
    }
    if (Date.now() >= deadline) return `the endpoint was not InService within ${LONGEST_UPDATE_SECONDS} s`;
    await sleep((wait.pollSeconds ?? 30) * 1000, undefined, { signal: wait.signal });
  }
}

/**
 * Registers `endpoint`'s autoscaling again once its update has ended, then forgets the stored restore. One replica
 * does it: the one holding the restore's lease; the others leave it. An endpoint that will never be InService
 * again (failed, deleted) is given up, logged.
 */
export async function finishPendingRestore(
  deps: { aws: RestoreClients; store: Store },
  endpoint: string,
  wait: RestoreWait = {},
): Promise<void> {
  const lease = await holdLease(deps.store, `autoscaling-restore:${endpoint}`, wait.lease ?? { ttlMs: 30_000 });
  if (!lease) return;
  const signal = wait.signal ? AbortSignal.any([wait.signal, lease.lost]) : lease.lost;
  try {
    const pending = await deps.store
      .selectFrom("autoscaling_restores")
      .selectAll()
      .where("endpoint_name", "=", endpoint)
      .executeTakeFirst();
    if (!pending) return;
    const refused = await untilInService(deps.aws.sageMaker, endpoint, pending.requested_at, { ...wait, signal });
    if (refused) {
      console.error(
        JSON.stringify({
          level: "error",
          msg: "autoscaling not registered again after an update",
          endpoint,
          reason: refused,
        }),
      );
    } else {
      await restoreAutoscaling(deps.aws, endpoint, pending.variant, JSON.parse(pending.autoscaling) as Autoscaling);
    }
    await forgetPendingRestore(deps.store, endpoint);
  } finally {
    await lease.release();
  }
}

/** Restores this process is finishing; one stopped by shutdown (its signal aborted) is not a failure to log. */
const restores = (signal?: AbortSignal) =>
  inProcessWork("autoscaling restores", (endpoint, error) => {
    if (signal?.aborted) return;
    console.error(
      JSON.stringify({
        level: "error",
        msg: "autoscaling not registered again after an update",
        endpoint,
        error: String(error),
      }),
    );
  });

/** Finishes `endpoint`'s stored restore in the background unless this process already is; settles when done. */
export function takeUpPendingRestore(
  deps: { aws: RestoreClients; store: Store },
  endpoint: string,
  wait: RestoreWait = {},
): Promise<void> {
  return restores(wait.signal).takeUp(endpoint, () => finishPendingRestore(deps, endpoint, wait));
}

/** Takes up every stored restore no replica is finishing (a stopped or killed console left them). */
export async function resumePendingRestores(deps: { aws: RestoreClients; store: Store }, wait: RestoreWait = {}) {
  for (const endpoint of await pendingRestores(deps.store)) void takeUpPendingRestore(deps, endpoint, wait);
}

/** Waits for the restores this process took up (shutdown aborts them through `wait.signal` first). */
export async function settledRestores(): Promise<void> {
  await restores().settled();
}

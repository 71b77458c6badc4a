import { setTimeout as sleep } from "node:timers/promises";
import {
  CreateEndpointConfigCommand,
  CreateModelCommand,
  DescribeEndpointCommand,
  type ProductionVariant,
  type SageMakerClient,
  UpdateEndpointCommand,
} from "@aws-sdk/client-sagemaker";
import type {
  EndShadowTestResult,
  PromoteShadowRequest,
  PromoteShadowResult,
  ShadowPromotionState,
  ShadowTestRequest,
  ShadowTestResult,
} from "../../contract/endpoints/shadow-test.ts";
import { neverInServiceAgain } from "../../contract/endpoints/status.ts";
import { type EndpointChange, strategyCapacityProblem, type UpdateRequest } from "../../contract/endpoints/update.ts";
import { recordAudit } from "../audit/record.ts";
import type { ManagedScope } from "../auth/managed-names.ts";
import { audited } from "../aws/audited.ts";
import type { AwsClients } from "../aws/clients.ts";
import { awsCall } from "../aws/errors.ts";
import { AppError } from "../http/app-error.ts";
import { holdLease, type LeaseTiming } from "../store/leases.ts";
import type { Store } from "../store/store.ts";
import { loadEndpointResources } from "./resources.ts";
import { createUnlessPresent, derivedName, updatedResources, updateEndpoint, withVersionArtifact } from "./update.ts";
import { updateAuditEntry } from "./update-audit.ts";

/**
 * Shadow tests (Developer Guide, "Shadow variants"): the endpoint's configuration gets one shadow variant beside its
 * one production variant; SageMaker copies the sampled share of requests to it, answers callers from production
 * only, and captures both when data capture is on. The console records the test (what it changes, the
 * configuration it replaced) so that ending it goes back exactly, and promoting it runs the candidate's change
 * through the console's safe update once the shadow is gone. A promotion is stored until that update starts, so a
 * console that stops in between takes it up again when it starts.
 */
const testOf = (store: Store, endpoint: string) =>
  store
    .selectFrom("shadow_tests")
    .select(["shadow_config", "previous_config", "change", "sampling_percentage"])
    .where("endpoint_name", "=", endpoint)
    .executeTakeFirst();

type ShadowTestRow = NonNullable<Awaited<ReturnType<typeof testOf>>>;

const promotionColumns = [
  "update_request",
  "previous_config",
  "requested_by",
  "requested_at",
  "attempts",
  "last_error",
] as const;

const promotionOf = (store: Store, endpoint: string) =>
  store
    .selectFrom("shadow_promotions")
    .select(promotionColumns)
    .where("endpoint_name", "=", endpoint)
    .executeTakeFirst();

type PromotionRow = NonNullable<Awaited<ReturnType<typeof promotionOf>>>;

async function refuseWhilePromotionWaits(store: Store, name: string) {
  const promotion = await promotionOf(store, name);
  if (promotion) {
    throw new AppError(
      "conflict",
      `Endpoint "${name}" has a shadow promotion waiting to start its update (asked by ${promotion.requested_by} at ` +
        `${promotion.requested_at}); try again once that update has started.`,
    );
  }
}

async function inServiceResources(sageMaker: SageMakerClient, name: string) {
  const resources = await loadEndpointResources(sageMaker, name);
  const status = resources.endpoint.EndpointStatus;
  if (status !== "InService") {
    throw new AppError("conflict", `Endpoint "${name}" is ${status}; try again once it is InService.`, { status });
  }
  return resources;
}

export async function startShadowTest(
  sageMaker: SageMakerClient,
  store: Store,
  name: string,
  request: ShadowTestRequest,
  options: { actor: string; resourceNamePrefix: string | null },
): Promise<ShadowTestResult> {
  await refuseWhilePromotionWaits(store, name);
  const resources = await inServiceResources(sageMaker, name);
  const { config, endpoint } = resources;
  if ((config?.ShadowProductionVariants?.length ?? 0) > 0) {
    throw new AppError("conflict", `Endpoint "${name}" already runs a shadow test; promote it or end it first.`);
  }
  if (config?.AsyncInferenceConfig) {
    throw new AppError("bad_request", "A shadow test copies real-time invocations; this endpoint is asynchronous.");
  }
  const production = config?.ProductionVariants?.[0];
  const change: EndpointChange = request.change.modelVersionArn
    ? (await withVersionArtifact(sageMaker, request.change, options.resourceNamePrefix)).change
    : request.change;
  const { modelInput, configInput } = updatedResources(resources, change);
  const candidate = configInput.ProductionVariants?.[0];
  if (!config || !production || !candidate) {
    throw new AppError("conflict", `Endpoint "${name}" has no production variant to shadow.`);
  }
  const shadow: ProductionVariant = {
    ...candidate,
    VariantName: production.VariantName === "Shadow" ? "Candidate" : "Shadow",
    // The shadow's weight relative to production's is the share of requests copied to it.
    InitialVariantWeight: ((production.InitialVariantWeight ?? 1) * request.samplingPercentage) / 100,
  };
  const shadowConfig = derivedName(name, { shadowOf: endpoint.EndpointConfigName, shadow });
  await createUnlessPresent(`model "${modelInput.ModelName}"`, () =>
    sageMaker.send(new CreateModelCommand(modelInput)),
  );
  await createUnlessPresent(`endpoint config "${shadowConfig}"`, () =>
    sageMaker.send(
      new CreateEndpointConfigCommand({
        EndpointConfigName: shadowConfig,
        ProductionVariants: [production],
        ShadowProductionVariants: [shadow],
        ...(config.DataCaptureConfig ? { DataCaptureConfig: config.DataCaptureConfig } : {}),
        ...(config.KmsKeyId ? { KmsKeyId: config.KmsKeyId } : {}),
      }),
    ),
  );
  await awsCall(`endpoint "${name}"`, () =>
    sageMaker.send(
      new UpdateEndpointCommand({
        EndpointName: name,
        EndpointConfigName: shadowConfig,
        RetainAllVariantProperties: true,
      }),
    ),
  );
  const previous = endpoint.EndpointConfigName ?? "";
  const test = {
    shadow_config: shadowConfig,
    previous_config: previous,
    change: JSON.stringify(change),
    sampling_percentage: request.samplingPercentage,
    started_at: new Date().toISOString(),
    started_by: options.actor,
  };
  await store
    .insertInto("shadow_tests")
    .values({ endpoint_name: name, ...test })
    .onConflict((oc) => oc.column("endpoint_name").doUpdateSet(test))
    .execute();
  return {
    name,
    endpointConfigName: shadowConfig,
    previousEndpointConfigName: previous,
    shadowVariant: shadow.VariantName ?? "",
    shadowModelName: modelInput.ModelName ?? "",
    samplingPercentage: request.samplingPercentage,
    status: "Updating",
  };
}

/** The test this console started on the endpoint, which it still runs. */
async function runningTest(sageMaker: SageMakerClient, store: Store, name: string) {
  await refuseWhilePromotionWaits(store, name);
  const resources = await inServiceResources(sageMaker, name);
  const test = await testOf(store, name);
  if (!test || resources.endpoint.EndpointConfigName !== test.shadow_config) {
    throw new AppError("conflict", `Endpoint "${name}" runs no shadow test this console started.`);
  }
  return { test, endpoint: resources.endpoint };
}

async function backToProduction(sageMaker: SageMakerClient, name: string, test: ShadowTestRow) {
  await awsCall(`endpoint "${name}"`, () =>
    sageMaker.send(
      new UpdateEndpointCommand({
        EndpointName: name,
        EndpointConfigName: test.previous_config,
        RetainAllVariantProperties: true,
      }),
    ),
  );
}

const endTest = (store: Store, name: string) =>
  store.deleteFrom("shadow_tests").where("endpoint_name", "=", name).execute();

/** Ends the test: the endpoint goes back to the configuration it had before, without the shadow. */
export async function endShadowTest(
  sageMaker: SageMakerClient,
  store: Store,
  name: string,
): Promise<EndShadowTestResult> {
  const { test } = await runningTest(sageMaker, store, name);
  await backToProduction(sageMaker, name, test);
  await endTest(store, name);
  return { name, endpointConfigName: test.previous_config, status: "Updating" };
}

/**
 * Promotes the candidate: the test ends first (no SageMaker document says how a canary or linear update treats a
 * shadow variant, and local mode refuses one), and the promotion is stored with it: the candidate's change with the
 * request's strategy and rollback alarms, which `finishShadowPromotion` runs as the console's safe update once the
 * endpoint is InService again.
 */
export async function promoteShadow(
  sageMaker: SageMakerClient,
  store: Store,
  name: string,
  request: PromoteShadowRequest,
  options: { actor: string },
): Promise<PromoteShadowResult> {
  const { test, endpoint } = await runningTest(sageMaker, store, name);
  const change = JSON.parse(test.change) as EndpointChange;
  const instances = change.instanceCount ?? endpoint.ProductionVariants?.[0]?.CurrentInstanceCount ?? 1;
  const problem = strategyCapacityProblem(request.strategy, instances);
  if (problem) {
    throw new AppError(
      "bad_request",
      `${problem} The test keeps running: promote all at once (with a bake under the rollback alarms), or add ` +
        "instances to the endpoint first.",
    );
  }
  const update: UpdateRequest = { ...request, change };
  await backToProduction(sageMaker, name, test);
  await store.transaction().execute(async (trx) => {
    await endTest(trx, name);
    await trx
      .insertInto("shadow_promotions")
      .values({
        endpoint_name: name,
        update_request: JSON.stringify(update),
        previous_config: test.previous_config,
        requested_by: options.actor,
        requested_at: new Date().toISOString(),
      })
      .execute();
  });
  return {
    name,
    endpointConfigName: test.previous_config,
    followedBy: { change, strategy: request.strategy.kind },
    status: "Updating",
  };
}

/** What a stored promotion's update runs with: the console's clients, store and managed names. */
export interface PromotionDeps {
  aws: Pick<AwsClients, "sageMaker" | "cloudWatch" | "autoScaling">;
  store: Store;
  scope: Pick<ManagedScope, "prefix">;
}

export interface PromotionWait {
  /** Seconds between DescribeEndpoint calls while the endpoint goes back. */
  pollSeconds?: number;
  /** Stops waiting and leaves the promotion stored, as a console that stops does. */
  signal?: AbortSignal;
  /** How long this process's claim on the promotion lasts unrenewed (CONSOLE_LEASE_SECONDS); default 30 s. */
  lease?: LeaseTiming;
}

/** How long after the promotion the endpoint may take to be InService again before the promotion is given up. */
const LONGEST_WAIT_SECONDS = 3600;

/** Null once the endpoint is InService on the configuration the test went back to; else why the update cannot follow. */
async function waitForPreviousConfig(
  { aws, store }: PromotionDeps,
  name: string,
  promotion: PromotionRow,
  { pollSeconds = 15, signal }: PromotionWait,
): Promise<string | null> {
  const deadline = Date.parse(promotion.requested_at) + LONGEST_WAIT_SECONDS * 1000;
  for (;;) {
    try {
      const endpoint = await awsCall(`endpoint "${name}"`, () =>
        aws.sageMaker.send(new DescribeEndpointCommand({ EndpointName: name })),
      );
      signal?.throwIfAborted();
      const status = endpoint.EndpointStatus ?? "";
      if (status === "InService") {
        return endpoint.EndpointConfigName === promotion.previous_config
          ? null
          : `the endpoint is InService on "${endpoint.EndpointConfigName}", not on "${promotion.previous_config}" ` +
              "the test went back to: it was updated since";
      }
      if ((neverInServiceAgain as readonly string[]).includes(status)) {
        return `the endpoint is ${status}${endpoint.FailureReason ? `: ${endpoint.FailureReason}` : ""}`;
      }
    } catch (error) {
      signal?.throwIfAborted();
      if (error instanceof AppError && error.code === "not_found") return "the endpoint is gone";
      await store
        .updateTable("shadow_promotions")
        .set({ last_error: String(error) })
        .where("endpoint_name", "=", name)
        .execute();
    }
    if (Date.now() >= deadline) {
      return `the endpoint was not InService on "${promotion.previous_config}" within ${LONGEST_WAIT_SECONDS} s`;
    }
    await sleep(pollSeconds * 1000, undefined, { signal });
  }
}

/** The audit action of a promotion given up in the background: what the page that promoted reads back. */
const PROMOTION_GIVEN_UP = "endpoint.shadow-promotion.given-up";

async function giveUp(store: Store, name: string, reason: string) {
  const promotion = await promotionOf(store, name);
  await recordAudit(
    {
      actor: promotion?.requested_by ?? "console",
      action: PROMOTION_GIVEN_UP,
      target: name,
      result: "error",
      detail: { reason, attempts: promotion?.attempts, lastError: promotion?.last_error ?? undefined },
    },
    store,
  );
  console.error(
    JSON.stringify({
      level: "error",
      msg: "shadow promotion given up; its update was not started",
      endpoint: name,
      requestedBy: promotion?.requested_by,
      reason,
      attempts: promotion?.attempts,
      lastError: promotion?.last_error ?? undefined,
    }),
  );
  await forgetPromotion(store, name);
}

const forgetPromotion = (store: Store, name: string) =>
  store.deleteFrom("shadow_promotions").where("endpoint_name", "=", name).execute();

/**
 * Takes up the endpoint's stored promotion: once the endpoint is InService on the configuration the test went back
 * to, starts its update, audited as its requester's, and forgets it. An endpoint gone, failed or updated by someone
 * else, or an update refused, gives the promotion up with its reason logged. Aborting `signal` leaves it stored.
 */
export async function finishShadowPromotion(
  deps: PromotionDeps,
  name: string,
  wait: PromotionWait = {},
): Promise<void> {
  const { store } = deps;
  // Every replica takes up stored promotions; the one holding this lease finishes it, the others leave it.
  const lease = await holdLease(store, `shadow-promotion:${name}`, wait.lease ?? { ttlMs: 30_000 });
  if (!lease) return;
  try {
    await finishHeldPromotion(deps, name, {
      ...wait,
      signal: wait.signal ? AbortSignal.any([wait.signal, lease.lost]) : lease.lost,
    });
  } finally {
    await lease.release();
  }
}

async function finishHeldPromotion(deps: PromotionDeps, name: string, wait: PromotionWait): Promise<void> {
  const { aws, store, scope } = deps;
  const promotion = await store
    .updateTable("shadow_promotions")
    .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
    .where("endpoint_name", "=", name)
    .returning(promotionColumns)
    .executeTakeFirst();
  if (!promotion) return;
  const refused = await waitForPreviousConfig(deps, name, promotion, wait);
  if (refused) return giveUp(store, name, refused);
  const update = JSON.parse(promotion.update_request) as UpdateRequest;
  try {
    await audited(store, updateAuditEntry(promotion.requested_by, name, update), () =>
      updateEndpoint({ ...aws, store }, name, update, {
        resourceNamePrefix: scope.prefix,
        lease: wait.lease,
        linkedBy: { why: "promoted", by: promotion.requested_by },
      }),
    );
  } catch (error) {
    return giveUp(store, name, `the update was refused: ${(error as Error).message}`);
  }
  await forgetPromotion(store, name);
}

/** The endpoint's promotion waiting for its update, and the last one given up with its reason. */
export async function shadowPromotionState(store: Store, name: string): Promise<ShadowPromotionState> {
  const promotion = await promotionOf(store, name);
  const failure = await store
    .selectFrom("audit_log")
    .select(["at", "actor", "detail"])
    .where("action", "=", PROMOTION_GIVEN_UP)
    .where("target", "=", name)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  const reason = failure?.detail ? (JSON.parse(failure.detail) as { reason?: string }).reason : undefined;
  return {
    waiting: promotion
      ? {
          requestedBy: promotion.requested_by,
          requestedAt: promotion.requested_at,
          attempts: promotion.attempts,
          lastError: promotion.last_error,
        }
      : null,
    lastFailure: failure
      ? { at: failure.at, requestedBy: failure.actor, reason: reason ?? "(no reason recorded)" }
      : null,
  };
}

/** The endpoints with a promotion stored, oldest first (requested_at is ISO-8601 text, so it sorts by time). */
export async function waitingPromotions(store: Store): Promise<string[]> {
  const rows = await store
    .selectFrom("shadow_promotions")
    .select("endpoint_name")
    .orderBy("requested_at")
    .orderBy("endpoint_name")
    .execute();
  return rows.map((row) => row.endpoint_name);
}

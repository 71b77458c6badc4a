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
  ShadowTestRequest,
  ShadowTestResult,
} from "../../contract/endpoints/shadow-test.ts";
import type { EndpointChange, UpdateRequest } from "../../contract/endpoints/update.ts";
import type { ManagedScope } from "../auth/managed-names.ts";
import { audited } from "../aws/audited.ts";
import type { AwsClients } from "../aws/clients.ts";
import { awsCall } from "../aws/errors.ts";
import { AppError } from "../http/app-error.ts";
import type { Db } from "../store/database.ts";
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
type ShadowTestRow = {
  shadow_config: string;
  previous_config: string;
  change: string;
  sampling_percentage: number;
};

const testOf = (db: Db, endpoint: string) =>
  db
    .prepare(
      "SELECT shadow_config, previous_config, change, sampling_percentage FROM shadow_tests WHERE endpoint_name = ?",
    )
    .get(endpoint) as ShadowTestRow | undefined;

type PromotionRow = {
  update_request: string;
  previous_config: string;
  requested_by: string;
  requested_at: string;
  attempts: number;
  last_error: string | null;
};

const promotionOf = (db: Db, endpoint: string) =>
  db
    .prepare(
      `SELECT update_request, previous_config, requested_by, requested_at, attempts, last_error
       FROM shadow_promotions WHERE endpoint_name = ?`,
    )
    .get(endpoint) as PromotionRow | undefined;

function refuseWhilePromotionWaits(db: Db, name: string) {
  const promotion = promotionOf(db, name);
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
  db: Db,
  name: string,
  request: ShadowTestRequest,
  options: { actor: string; resourceNamePrefix: string | null },
): Promise<ShadowTestResult> {
  refuseWhilePromotionWaits(db, name);
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
    ? await withVersionArtifact(sageMaker, request.change, options.resourceNamePrefix)
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
  db.prepare(
    `INSERT INTO shadow_tests (endpoint_name, shadow_config, previous_config, change, sampling_percentage, started_at,
       started_by) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (endpoint_name) DO UPDATE SET shadow_config = excluded.shadow_config,
       previous_config = excluded.previous_config, change = excluded.change,
       sampling_percentage = excluded.sampling_percentage, started_at = excluded.started_at,
       started_by = excluded.started_by`,
  ).run(
    name,
    shadowConfig,
    previous,
    JSON.stringify(change),
    request.samplingPercentage,
    new Date().toISOString(),
    options.actor,
  );
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
async function runningTest(sageMaker: SageMakerClient, db: Db, name: string) {
  refuseWhilePromotionWaits(db, name);
  const resources = await inServiceResources(sageMaker, name);
  const test = testOf(db, name);
  if (!test || resources.endpoint.EndpointConfigName !== test.shadow_config) {
    throw new AppError("conflict", `Endpoint "${name}" runs no shadow test this console started.`);
  }
  return test;
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

const endTest = (db: Db, name: string) => db.prepare("DELETE FROM shadow_tests WHERE endpoint_name = ?").run(name);

/** Ends the test: the endpoint goes back to the configuration it had before, without the shadow. */
export async function endShadowTest(sageMaker: SageMakerClient, db: Db, name: string): Promise<EndShadowTestResult> {
  const test = await runningTest(sageMaker, db, name);
  await backToProduction(sageMaker, name, test);
  endTest(db, name);
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
  db: Db,
  name: string,
  request: PromoteShadowRequest,
  options: { actor: string },
): Promise<PromoteShadowResult> {
  const test = await runningTest(sageMaker, db, name);
  const change = JSON.parse(test.change) as EndpointChange;
  const update: UpdateRequest = { ...request, change };
  await backToProduction(sageMaker, name, test);
  db.transaction(() => {
    endTest(db, name);
    db.prepare(
      `INSERT INTO shadow_promotions (endpoint_name, update_request, previous_config, requested_by, requested_at)
       VALUES (?, ?, ?, ?, ?)`,
    ).run(name, JSON.stringify(update), test.previous_config, options.actor, new Date().toISOString());
  })();
  return {
    name,
    endpointConfigName: test.previous_config,
    followedBy: { change, strategy: request.strategy.kind },
    status: "Updating",
  };
}

/** What a stored promotion's update runs with: the console's clients, database and managed names. */
export interface PromotionDeps {
  aws: Pick<AwsClients, "sageMaker" | "cloudWatch" | "autoScaling">;
  db: Db;
  scope: Pick<ManagedScope, "prefix">;
}

export interface PromotionWait {
  /** Seconds between DescribeEndpoint calls while the endpoint goes back. */
  pollSeconds?: number;
  /** Stops waiting and leaves the promotion stored, as a console that stops does. */
  signal?: AbortSignal;
}

/** How long after the promotion the endpoint may take to be InService again before the promotion is given up. */
const LONGEST_WAIT_SECONDS = 3600;
const UNRECOVERABLE = new Set(["Failed", "UpdateRollbackFailed", "Deleting"]);

/** Null once the endpoint is InService on the configuration the test went back to; else why the update cannot follow. */
async function waitForPreviousConfig(
  { aws, db }: PromotionDeps,
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
      if (UNRECOVERABLE.has(status)) {
        return `the endpoint is ${status}${endpoint.FailureReason ? `: ${endpoint.FailureReason}` : ""}`;
      }
    } catch (error) {
      signal?.throwIfAborted();
      if (error instanceof AppError && error.code === "not_found") return "the endpoint is gone";
      db.prepare("UPDATE shadow_promotions SET last_error = ? WHERE endpoint_name = ?").run(String(error), name);
    }
    if (Date.now() >= deadline) {
      return `the endpoint was not InService on "${promotion.previous_config}" within ${LONGEST_WAIT_SECONDS} s`;
    }
    await sleep(pollSeconds * 1000, undefined, { signal });
  }
}

function giveUp(db: Db, name: string, reason: string) {
  const promotion = promotionOf(db, name);
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
  db.prepare("DELETE FROM shadow_promotions WHERE endpoint_name = ?").run(name);
}

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
  const { aws, db, scope } = deps;
  const promotion = db
    .prepare(
      `UPDATE shadow_promotions SET attempts = attempts + 1 WHERE endpoint_name = ?
       RETURNING update_request, previous_config, requested_by, requested_at, attempts, last_error`,
    )
    .get(name) as PromotionRow | undefined;
  if (!promotion) return;
  const refused = await waitForPreviousConfig(deps, name, promotion, wait);
  if (refused) return giveUp(db, name, refused);
  const update = JSON.parse(promotion.update_request) as UpdateRequest;
  try {
    await audited(db, updateAuditEntry(promotion.requested_by, name, update), () =>
      updateEndpoint(aws, name, update, { resourceNamePrefix: scope.prefix }),
    );
  } catch (error) {
    return giveUp(db, name, `the update was refused: ${(error as Error).message}`);
  }
  db.prepare("DELETE FROM shadow_promotions WHERE endpoint_name = ?").run(name);
}

/** The endpoints with a promotion stored, oldest first. */
export function waitingPromotions(db: Db): string[] {
  const rows = db.prepare("SELECT endpoint_name FROM shadow_promotions ORDER BY requested_at").all() as {
    endpoint_name: string;
  }[];
  return rows.map((row) => row.endpoint_name);
}

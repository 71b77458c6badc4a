import {
  CreateEndpointConfigCommand,
  CreateModelCommand,
  type ProductionVariant,
  type SageMakerClient,
  UpdateEndpointCommand,
  waitUntilEndpointInService,
} from "@aws-sdk/client-sagemaker";
import type {
  EndShadowTestResult,
  PromoteShadowRequest,
  PromoteShadowResult,
  ShadowTestRequest,
  ShadowTestResult,
} from "../../contract/endpoints/shadow-test.ts";
import type { EndpointChange, UpdateRequest } from "../../contract/endpoints/update.ts";
import { awsCall } from "../aws/errors.ts";
import { AppError } from "../http/app-error.ts";
import type { Db } from "../store/database.ts";
import { loadEndpointResources } from "./resources.ts";
import { createUnlessPresent, derivedName, updatedResources, withVersionArtifact } from "./update.ts";

/**
 * Shadow tests (Developer Guide, "Shadow variants"): the endpoint's configuration gets one shadow variant beside its
 * one production variant; SageMaker copies the sampled share of requests to it, answers callers from production
 * only, and captures both when data capture is on. The console records the test (what it changes, the
 * configuration it replaced) so that ending it goes back exactly, and promoting it runs the candidate's change
 * through the console's safe update once the shadow is gone.
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
  const resources = await inServiceResources(sageMaker, name);
  const test = testOf(db, name);
  if (!test || resources.endpoint.EndpointConfigName !== test.shadow_config) {
    throw new AppError("conflict", `Endpoint "${name}" runs no shadow test this console started.`);
  }
  return test;
}

async function backToProduction(sageMaker: SageMakerClient, db: Db, name: string, test: ShadowTestRow) {
  await awsCall(`endpoint "${name}"`, () =>
    sageMaker.send(
      new UpdateEndpointCommand({
        EndpointName: name,
        EndpointConfigName: test.previous_config,
        RetainAllVariantProperties: true,
      }),
    ),
  );
  db.prepare("DELETE FROM shadow_tests WHERE endpoint_name = ?").run(name);
}

/** Ends the test: the endpoint goes back to the configuration it had before, without the shadow. */
export async function endShadowTest(sageMaker: SageMakerClient, db: Db, name: string): Promise<EndShadowTestResult> {
  const test = await runningTest(sageMaker, db, name);
  await backToProduction(sageMaker, db, name, test);
  return { name, endpointConfigName: test.previous_config, status: "Updating" };
}

/**
 * Promotes the candidate: the test ends first (no SageMaker document says how a canary or linear update treats a
 * shadow variant, and local mode refuses one), then, once the endpoint is InService
 * again, `startUpdate` runs the candidate's change with the request's strategy and rollback alarms: the console's
 * safe update, audited as any other. `task` is that wait and update.
 */
export async function promoteShadow(
  sageMaker: SageMakerClient,
  db: Db,
  name: string,
  request: PromoteShadowRequest,
  options: { startUpdate: (update: UpdateRequest) => Promise<unknown>; pollSeconds?: number },
): Promise<{ result: PromoteShadowResult; task: Promise<void> }> {
  const test = await runningTest(sageMaker, db, name);
  const change = JSON.parse(test.change) as EndpointChange;
  await backToProduction(sageMaker, db, name, test);
  const pollSeconds = options.pollSeconds ?? 15;
  const task = (async () => {
    await waitUntilEndpointInService(
      { client: sageMaker, maxWaitTime: 3600, minDelay: pollSeconds, maxDelay: pollSeconds },
      { EndpointName: name },
    );
    await options.startUpdate({ ...request, change });
  })();
  return {
    result: {
      name,
      endpointConfigName: test.previous_config,
      followedBy: { change, strategy: request.strategy.kind },
      status: "Updating",
    },
    task,
  };
}

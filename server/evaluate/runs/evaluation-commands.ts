import {
  type BatchEvaluationTarget,
  type CreateEvaluation,
  type CreateEvaluationInput,
  createEvaluationSchema,
  type EvaluationSummary,
} from "../../../contract/evaluate/evaluations.ts";
import { audited } from "../../aws/audited.ts";
import { AppError } from "../../http/app-error.ts";
import { findDataset } from "../datasets/dataset-store.ts";
import type { EndpointChecker } from "../endpoint-configuration.ts";
import { batchJobOf } from "./batch-job-store.ts";
import { launchBatchJob, planBatchJob } from "./batch-run.ts";
import { cancelRun, startRun } from "./run-registry.ts";
import { createRun, deleteRun, findRun, reopenFailedItems } from "./run-store.ts";
import { evaluationSummary } from "./run-view.ts";
import type { RunnerDeps } from "./runner.ts";

/**
 * Creates a run once every endpoint is known to be InService (recording what each runs on), or once its transform
 * job has been created for a run that targets a model (audited as `transform-job.start` by `actor`), and starts
 * working it in this process; the answer comes at once, progress is polled.
 */
export async function startEvaluation(
  deps: RunnerDeps & { checkEndpoint: EndpointChecker },
  input: CreateEvaluationInput,
  actor = "console",
): Promise<EvaluationSummary> {
  const request = createEvaluationSchema.parse(input);
  const dataset = await findDataset(deps.store, request.datasetId);
  if (!dataset) throw new AppError("bad_request", `datasetId: there is no dataset ${request.datasetId}.`);
  const run = request.batch
    ? await createBatchRun(deps, request, request.batch, actor)
    : await createEndpointRun(deps, request);
  void startRun(deps, run.id);
  const summary = await evaluationSummary(deps.store, run.id);
  if (!summary) throw new AppError("internal", "The evaluation was created but cannot be read back.");
  return summary;
}

async function createEndpointRun(deps: RunnerDeps & { checkEndpoint: EndpointChecker }, request: CreateEvaluation) {
  const checked = await Promise.all(request.endpoints.map((name) => deps.checkEndpoint(name)));
  const configurations = checked.map((endpoint) => endpoint.configuration);
  return createRun(deps.store, { ...request, configurations });
}

/**
 * A run on a model: its transform job is planned and started before the answer, so a model the job cannot use is
 * a 4xx and no run is kept; after a 5xx the run stays and its runner creates the job (or finds it created).
 */
async function createBatchRun(
  deps: RunnerDeps,
  request: CreateEvaluation,
  target: BatchEvaluationTarget,
  actor: string,
) {
  if (!deps.batch) throw new AppError("unavailable", "This console was started without batch evaluations.");
  const run = await createRun(deps.store, {
    ...request,
    endpoints: [target.modelName],
    configurations: [`${target.instanceCount} x ${target.instanceType} (batch transform)`],
  });
  const batch = deps.batch;
  try {
    const job = planBatchJob(batch.settings, run.id, target);
    const detail = { evaluation: run.id, ...target };
    await audited(deps.store, { actor, action: "transform-job.start", target: job.job_name, detail }, () =>
      launchBatchJob(batch, deps.store, run, job),
    );
  } catch (error) {
    if (!(error instanceof AppError) || error.status < 500) {
      await deleteRun(deps.store, run.id);
      throw error;
    }
  }
  return run;
}

export async function cancelEvaluation(deps: Pick<RunnerDeps, "store">, id: string): Promise<void> {
  const run = await findRun(deps.store, id);
  if (!run) throw new AppError("not_found", `There is no evaluation ${id}.`);
  if (!(await cancelRun(deps, id))) throw new AppError("conflict", `The evaluation has already ${run.status}.`);
}

/**
 * Asks the items of an ended run that got no answer again (busy, timeout, unreachable...), keeping every answer it
 * has; the run is running again until they are done. 409 while it runs or for a batch run; a run with nothing failed
 * is left as it is (0 items asked again), so a client may repeat the call safely.
 */
export async function retryFailedItems(deps: RunnerDeps, id: string): Promise<number> {
  const run = await findRun(deps.store, id);
  if (!run) throw new AppError("not_found", `There is no evaluation ${id}.`);
  if (run.status === "running") throw new AppError("conflict", "The evaluation is still running; wait for it to end.");
  if (await batchJobOf(deps.store, id)) {
    throw new AppError("conflict", "A batch evaluation is one transform job: start a new run to score it again.");
  }
  const reopened = await reopenFailedItems(deps.store, id);
  if (reopened > 0) void startRun(deps, id);
  return reopened;
}

/** Deletes an evaluation that is not running, with its per-item results. */
export async function deleteEvaluation(deps: Pick<RunnerDeps, "store">, id: string): Promise<void> {
  const run = await findRun(deps.store, id);
  if (!run) throw new AppError("not_found", `There is no evaluation ${id}.`);
  if (run.status === "running") throw new AppError("conflict", "The evaluation is still running; cancel it first.");
  await deleteRun(deps.store, id);
}

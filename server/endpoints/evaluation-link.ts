import type { EvaluationLink, EvaluationLinkReason } from "../../contract/endpoints/evaluation-link.ts";
import type { ModelVersion } from "../../contract/models/model-registry.ts";
import { findRun, runTargets } from "../evaluate/runs/run-store.ts";
import { AppError } from "../http/app-error.ts";
import type { Store } from "../store/store.ts";

/** Who linked the endpoint to its evaluation, and why. */
export interface LinkedBy {
  why: EvaluationLinkReason;
  by: string;
}

/**
 * Records that the endpoint's realised quality is to be compared with `runId` from now on: while it serves
 * `versionArn`, when the link came with a registry version.
 */
export async function recordEvaluationLink(
  store: Store,
  endpointName: string,
  runId: string,
  { why, by }: LinkedBy,
  at = new Date(),
  versionArn: string | null = null,
): Promise<EvaluationLink> {
  await store
    .insertInto("evaluation_links")
    .values({
      endpoint_name: endpointName,
      run_id: runId,
      reason: why,
      linked_by: by,
      linked_at: at.toISOString(),
      model_version_arn: versionArn,
    })
    .execute();
  return { endpointName, runId, why, by, at: at.toISOString() };
}

/**
 * The link to the evaluation a registry version carries, when the endpoint now serves that version: no link when
 * none is attached (the endpoint's earlier link stays, as the newest).
 */
export async function linkVersionEvaluation(
  store: Store,
  endpointName: string,
  version: Pick<ModelVersion, "evaluation" | "arn">,
  linkedBy: LinkedBy,
): Promise<EvaluationLink | null> {
  if (!version.evaluation) return null;
  return recordEvaluationLink(store, endpointName, version.evaluation.runId, linkedBy, new Date(), version.arn);
}

/**
 * The endpoint's newest link, or null when it has none. Given the registry version the endpoint serves now (null
 * for none), a link that came with another version is passed over: after an update SageMaker rolled back, the
 * version served again has its own link back, and an update that changed no version keeps the one it had.
 */
export async function newestEvaluationLink(
  store: Store,
  endpointName: string,
  servedVersionArn?: string | null,
): Promise<EvaluationLink | null> {
  const row = await store
    .selectFrom("evaluation_links")
    .selectAll()
    .where("endpoint_name", "=", endpointName)
    .$if(servedVersionArn !== undefined, (query) =>
      query.where((eb) =>
        eb.or([
          eb("model_version_arn", "is", null),
          ...(servedVersionArn ? [eb("model_version_arn", "=", servedVersionArn)] : []),
        ]),
      ),
    )
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? { endpointName, runId: row.run_id, why: row.reason, by: row.linked_by, at: row.linked_at } : null;
}

/**
 * An operator's choice: production compared with a completed run that scored this endpoint (404 for no such run,
 * 400 for a run of other endpoints or one not completed).
 */
export async function chooseEvaluation(
  store: Store,
  endpointName: string,
  runId: string,
  by: string,
): Promise<EvaluationLink> {
  const run = await findRun(store, runId);
  if (!run) throw new AppError("not_found", `runId: there is no evaluation run ${runId}.`);
  const targets = await runTargets(store, runId);
  if (!targets.includes(endpointName)) {
    throw new AppError(
      "bad_request",
      `runId: evaluation run ${runId} scored ${targets.join(", ")}, not endpoint "${endpointName}".`,
    );
  }
  if (run.status !== "completed") {
    throw new AppError("bad_request", `runId: evaluation run ${runId} is ${run.status}; choose a completed run.`);
  }
  return recordEvaluationLink(store, endpointName, runId, { why: "chosen", by });
}

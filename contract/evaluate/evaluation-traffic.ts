/**
 * The console's evaluation runner tags each request it sends with an InferenceId of its own, which SageMaker writes
 * into the capture record: "If you provide a value, it is added to the captured data when you enable data capture on
 * the endpoint." (InvokeEndpoint, `InferenceId`, SageMaker Runtime API reference). Production views read a record
 * with this prefix as evaluation traffic and leave it out unless asked to include it.
 */
export const EVALUATION_INFERENCE_PREFIX = "dc-eval-";

/** The InferenceId of one evaluation item's request (at most 64 characters: a UUID run id and two positions). */
export function evaluationInferenceId(item: { runId: string; slot: number; position: number }): string {
  return `${EVALUATION_INFERENCE_PREFIX}${item.runId}-${item.slot}-${item.position}`;
}

/** Whether a captured request came from the console's evaluation runner. */
export function isEvaluationTraffic(inferenceId: string | null | undefined): boolean {
  return inferenceId?.startsWith(EVALUATION_INFERENCE_PREFIX) ?? false;
}

import { z } from "zod";

/**
 * The console tags the requests it sends itself with an InferenceId of its own, which SageMaker writes into the
 * capture record: "If you provide a value, it is added to the captured data when you enable data capture on the
 * endpoint." (InvokeEndpoint, `InferenceId`, SageMaker Runtime API reference). Production views read a record
 * tagged as the evaluation runner's as evaluation traffic and leave it out unless asked to include it; a record
 * tagged as the gateway's is production, counted apart from direct callers' (any other id, or none).
 */
export const EVALUATION_INFERENCE_PREFIX = "dc-eval-";
export const GATEWAY_INFERENCE_PREFIX = "dc-gw-";

/** The InferenceId of one evaluation item's request (at most 64 characters: a UUID run id and two positions). */
export function evaluationInferenceId(item: { runId: string; slot: number; position: number }): string {
  return `${EVALUATION_INFERENCE_PREFIX}${item.runId}-${item.slot}-${item.position}`;
}

/**
 * The InferenceId of an evaluation item's asynchronous request: fresh for each sending (SageMaker names the
 * result by it, and a retried item must not meet its first answer), the item kept beside it in the console's
 * record of the request.
 */
export const asyncEvaluationInferenceId = (): string => `${EVALUATION_INFERENCE_PREFIX}${crypto.randomUUID()}`;

/** The InferenceId of a decision the gateway asks for: fresh, and the label join key its caller gets back. */
export const gatewayInferenceId = (): string => `${GATEWAY_INFERENCE_PREFIX}${crypto.randomUUID()}`;

/** Whether a captured request came from the console's evaluation runner. */
export function isEvaluationTraffic(inferenceId: string | null | undefined): boolean {
  return inferenceId?.startsWith(EVALUATION_INFERENCE_PREFIX) ?? false;
}

/** Whether a captured request came through the console's decision gateway. */
export function isGatewayTraffic(inferenceId: string | null | undefined): boolean {
  return inferenceId?.startsWith(GATEWAY_INFERENCE_PREFIX) ?? false;
}

/** `includeEvaluation=true|false` on a production view's query: whether evaluation traffic is read too (not by default). */
export const includeEvaluationSchema = z
  .enum(["true", "false"], { error: "includeEvaluation must be true or false" })
  .default("false")
  .transform((value) => value === "true");

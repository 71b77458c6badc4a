import { type Decision, type DecisionResult, singleDecisionResponseSchema } from "@decision-console/adapter/contract";
import { type BusyRetryPolicy, isBusyAnswer, retryWhileBusy } from "../../invoke/busy-retry.ts";
import { chosenIndex } from "../metrics/outcome.ts";
import type { EndpointInvoker, InvokeContext, InvokeOutcome } from "./invoker.ts";

export interface ItemScore {
  optionIds: string[] | null;
  probabilities: number[] | null;
  logits: number[] | null;
  chosen: string | null;
  latencyMs: number;
  adapterMs: number | null;
  attempts: number;
  errorKind: string | null;
  errorMessage: string | null;
}

function errorText(body: unknown): string {
  if (typeof body === "object" && body !== null && "error" in body) {
    const error = (body as { error: unknown }).error;
    if (typeof error === "string") return error;
    if (typeof error === "object" && error !== null && "message" in error) return String(error.message);
  }
  return typeof body === "string" ? body.slice(0, 500) : JSON.stringify(body).slice(0, 500);
}

function errorKindOf(status: number): string {
  if (status === 503) return "busy";
  if (status === 504 || status === 408) return "timeout";
  if (status >= 500) return "server_error";
  return "rejected";
}

function failedScore(latencyMs: number, attempts: number, errorKind: string, errorMessage: string): ItemScore {
  return {
    optionIds: null,
    probabilities: null,
    logits: null,
    chosen: null,
    latencyMs,
    adapterMs: null,
    attempts,
    errorKind,
    errorMessage,
  };
}

/**
 * Scores one decision on one endpoint. Every way it can go wrong becomes a recorded error of a kind (busy after
 * retries, rejected, server_error, timeout, unreachable, invalid_response), never a thrown error, so one bad
 * item cannot stop a run.
 */
export async function scoreItem(
  invoke: EndpointInvoker,
  endpointName: string,
  decision: Decision,
  retry: BusyRetryPolicy,
  context: InvokeContext,
): Promise<ItemScore> {
  const { signal } = context;
  const started = performance.now();
  let outcome: InvokeOutcome & { attempts: number };
  try {
    const { value, retries } = await retryWhileBusy(
      () => invoke(endpointName, { decision }, context),
      (answer) => isBusyAnswer(answer.status, answer.body),
      retry,
      signal,
    );
    outcome = { ...value, attempts: retries + 1 };
  } catch (error) {
    if (signal?.aborted) throw error;
    const timedOut = (error as Error).name === "TimeoutError";
    return failedScore(performance.now() - started, 1, timedOut ? "timeout" : "unreachable", (error as Error).message);
  }
  return scoreAnswer(decision, outcome);
}

/**
 * One decision's score from the container's answer to it (status and body), whether it came from an endpoint or
 * as a line of a transform job's output: a non-200 is an error of its kind, a 200 must be the decision's result.
 */
export function scoreAnswer(decision: Decision, outcome: InvokeOutcome & { attempts: number }): ItemScore {
  if (outcome.status !== 200) {
    return failedScore(outcome.latencyMs, outcome.attempts, errorKindOf(outcome.status), errorText(outcome.body));
  }
  const parsed = singleDecisionResponseSchema.safeParse(outcome.body);
  if (!parsed.success) {
    return failedScore(outcome.latencyMs, outcome.attempts, "invalid_response", "the answer is not a decision result");
  }
  const { result, timing } = parsed.data;
  const wanted = decision.options.map((option) => option.id);
  const order = wanted.map((id) => result.option_ids.indexOf(id));
  if (order.some((index) => index < 0) || result.probabilities.length !== result.option_ids.length) {
    return failedScore(
      outcome.latencyMs,
      outcome.attempts,
      "invalid_response",
      "the answer's options differ from the asked",
    );
  }
  const probabilities = order.map((index) => result.probabilities[index] as number);
  return {
    optionIds: wanted,
    probabilities,
    logits: rescalableLogits(result, order, probabilities),
    chosen: wanted[chosenIndex(probabilities)] as string,
    latencyMs: outcome.latencyMs,
    adapterMs: timing.total_seconds * 1000,
    attempts: outcome.attempts,
    errorKind: null,
    errorMessage: null,
  };
}

/**
 * Logits the temperature fit can rescale: softmax(logits, T) gives `probabilities` at the endpoint's temperature
 * T. With one option order they are the adapter's own. A debiased answer (`permutations` > 1) averages the
 * probabilities of several orders while its `option_logits` describe only the order as sent, so its logits are
 * T·log p, the ones that reproduce the averaged probabilities.
 */
function rescalableLogits(result: DecisionResult, order: readonly number[], probabilities: number[]): number[] | null {
  if ((result.permutations ?? 1) > 1) {
    return probabilities.map((p) => result.temperature * Math.log(Math.max(p, Number.MIN_VALUE)));
  }
  return result.option_logits.length === result.option_ids.length
    ? order.map((index) => result.option_logits[index] as number)
    : null;
}

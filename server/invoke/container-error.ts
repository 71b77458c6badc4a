import { adapterErrorMessage } from "@decision-console/adapter/contract";
import type { ErrorCode } from "../../contract/http/error-body.ts";
import { REALTIME_INVOCATION_SECONDS } from "../../contract/invoke/invocation-budget.ts";
import type { InvokeErrorDetails } from "../../contract/invoke/invoke.ts";
import { AppError } from "../http/app-error.ts";
import { isBusyAnswer } from "./busy-retry.ts";

const codeForStatus: Record<number, ErrorCode> = {
  400: "bad_request",
  404: "not_found",
  409: "conflict",
  413: "payload_too_large",
  415: "unsupported_media_type",
  422: "unprocessable",
  429: "rate_limited",
  503: "unavailable",
  504: "upstream_timeout",
};

interface ModelErrorLike {
  name?: string;
  OriginalStatusCode?: number;
  OriginalMessage?: string;
  LogStreamArn?: string;
  message?: string;
}

export function isModelError(error: unknown): error is ModelErrorLike {
  return (error as ModelErrorLike | null)?.name === "ModelError";
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * SageMaker's answer when a container takes longer than the 60 seconds a real-time invocation may take ("The
 * timeout for the container to respond to inference requests to /invocations is 1 minute", the real-time hosting
 * guide): a ModelError whose original status is 0 and whose message begins so.
 */
const INVOCATION_TIMED_OUT = /^Your invocation timed out while waiting for a response from container/;

export function isInvocationTimeout(error: ModelErrorLike): boolean {
  return (error.OriginalStatusCode ?? 0) === 0 && INVOCATION_TIMED_OUT.test(error.OriginalMessage ?? "");
}

export const INVOCATION_TIMEOUT_MESSAGE =
  `The endpoint did not answer within ${REALTIME_INVOCATION_SECONDS} seconds, SageMaker's limit for a real-time ` +
  "invocation: the container was still working on it. Long prompts on a small CPU instance can take this long: " +
  "deploy on a larger instance, or use an asynchronous endpoint, which allows up to an hour per request.";

/** A ModelError carrying the container's own busy answer, the one failure the busy-retry policy retries. */
export function isRetryableBusy(error: unknown): boolean {
  return isModelError(error) && isBusyAnswer(error.OriginalStatusCode, error.OriginalMessage ?? "");
}

/**
 * A failure the container itself answered, surfaced with the container's status and message so the playground
 * shows what the model server said (e.g. a SemIf 400 message), not SageMaker's 424 wrapper.
 */
export class ContainerError extends AppError {
  override readonly status: number;

  constructor(error: ModelErrorLike, retries: number) {
    const original = error.OriginalStatusCode;
    const timedOut = isInvocationTimeout(error);
    const status = timedOut ? 504 : original !== undefined && original >= 400 && original <= 599 ? original : 502;
    const raw = error.OriginalMessage ?? error.message ?? "";
    const body = parseJson(raw);
    const message = timedOut
      ? INVOCATION_TIMEOUT_MESSAGE
      : // The adapter's `{"error"}`, or the protocol's own shape on systemone and OpenAI decisions bodies.
        (adapterErrorMessage(body) ?? (raw || "The model container returned an error."));
    const details: InvokeErrorDetails = {
      originalStatusCode: original,
      retries,
      ...(error.LogStreamArn ? { logStreamArn: error.LogStreamArn } : {}),
      ...(body !== undefined ? { containerBody: body } : {}),
    };
    super(codeForStatus[status] ?? "upstream", message, details);
    this.name = "ContainerError";
    this.status = status;
  }
}

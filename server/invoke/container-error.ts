import { AppError, type ErrorCode } from "../http/app-error.ts";

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

/** The container's own 503 busy answer (DESIGN §4: `{"error": ..., "retryable": true}`), the one worth retrying. */
export function isRetryableBusy(error: unknown): boolean {
  if (!isModelError(error) || error.OriginalStatusCode !== 503) return false;
  const body = parseJson(error.OriginalMessage ?? "") as { retryable?: unknown } | undefined;
  return body?.retryable === true;
}

/**
 * A failure the container itself answered, surfaced with the container's status and message so the playground
 * shows what the model server said (e.g. a SemIf 400 message), not SageMaker's 424 wrapper.
 */
export class ContainerError extends AppError {
  override readonly status: number;

  constructor(error: ModelErrorLike, retries: number) {
    const original = error.OriginalStatusCode;
    const status = original !== undefined && original >= 400 && original <= 599 ? original : 502;
    const raw = error.OriginalMessage ?? error.message ?? "";
    const body = parseJson(raw) as { error?: unknown } | undefined;
    const message = typeof body?.error === "string" ? body.error : raw || "The model container returned an error.";
    super(codeForStatus[status] ?? "upstream", message, {
      originalStatusCode: original,
      retries,
      ...(error.LogStreamArn ? { logStreamArn: error.LogStreamArn } : {}),
      ...(body !== undefined ? { containerBody: body } : {}),
    });
    this.name = "ContainerError";
    this.status = status;
  }
}

/** An error from a console route, in words a person can act on. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

type ErrorBody = { error?: { code?: unknown; message?: unknown; details?: unknown } | string };

/** Reads `{"error": {"code", "message"}}` (console) or `{"error": "..."}` (adapter) into an ApiError. */
export function errorFromResponse(status: number, path: string, body: unknown): ApiError {
  const error = (body as ErrorBody | null)?.error;
  if (typeof error === "string") return new ApiError(status, "upstream", error);
  if (error && typeof error.message === "string") {
    return new ApiError(status, typeof error.code === "string" ? error.code : "error", error.message, error.details);
  }
  if (status === 404) {
    return new ApiError(404, "route_missing", `The console has no route ${path} yet (HTTP 404).`);
  }
  return new ApiError(status, "http_error", `The request to ${path} failed with HTTP ${status}.`);
}

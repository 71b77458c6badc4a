import { type ErrorCode, errorStatus } from "../../contract/http/error-body.ts";

/** The one error type of the console's server side: a stable code, an HTTP status and a message a person can act on. */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "AppError";
    this.status = errorStatus[code];
  }
}

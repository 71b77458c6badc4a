import { type ErrorCode, errorStatus } from "../../contract/http/error-body.ts";

/**
 * Marks an AppError across copies of this module: Next.js loads it once per bundle (the start-up hook, the proxy,
 * each route), and the console context kept on `globalThis` throws the copy of whichever bundle built it first.
 */
const appErrorBrand = Symbol.for("decision-console.AppError");

/** The one error type of the console's server side: a stable code, an HTTP status and a message a person can act on. */
export class AppError extends Error {
  readonly status: number;
  readonly [appErrorBrand] = true;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "AppError";
    this.status = errorStatus[code];
  }

  /** `instanceof AppError` holds for an AppError of any copy of this module; subclasses keep the usual test. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class on the right of instanceof, maybe a subclass
    if (this === AppError) return isAppError(value);
    // biome-ignore lint/complexity/noThisInStatic: as above
    return Function.prototype[Symbol.hasInstance].call(this, value);
  }
}

export function isAppError(value: unknown): value is AppError {
  return (
    typeof value === "object" && value !== null && (value as { [appErrorBrand]?: unknown })[appErrorBrand] === true
  );
}

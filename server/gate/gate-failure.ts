import { isAppError } from "../http/app-error.ts";

/** Why the gate could not give a verdict: the caller's input, or the infrastructure it had to reach. */
export type GateFailureKind = "input" | "infrastructure";

export class GateFailure extends Error {
  constructor(
    readonly kind: GateFailureKind,
    message: string,
  ) {
    super(message);
    this.name = "GateFailure";
  }
}

/**
 * Any error as a gate failure: the console's errors about what was asked (a dataset with bad rows, an endpoint that
 * does not exist or is not InService, a version that is not Approved) are the caller's input; everything else (AWS
 * unreachable, credentials refused, throttled, a 5xx) is infrastructure.
 */
const INPUT_STATUSES = new Set([400, 404, 409, 413, 415, 422]);

export function asGateFailure(error: unknown): GateFailure {
  if (error instanceof GateFailure) return error;
  if (isAppError(error)) {
    return new GateFailure(INPUT_STATUSES.has(error.status) ? "input" : "infrastructure", error.message);
  }
  return new GateFailure("infrastructure", error instanceof Error ? error.message : String(error));
}

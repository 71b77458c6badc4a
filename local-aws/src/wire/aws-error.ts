/**
 * An error the local control plane answers with, shaped the way the AWS SDK parses it for the protocol in use:
 * `code` becomes the SDK error's `name`, `fields` land on it as extra properties (e.g. `OriginalStatusCode`).
 */
export class AwsError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
    readonly fields: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = code;
  }
}

/** SageMaker's control-plane validation error, the one the SDK surfaces as `ValidationException`. */
export function validation(message: string): AwsError {
  return new AwsError("ValidationException", message, 400);
}

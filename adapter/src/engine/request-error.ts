/**
 * A request the adapter refuses with a client status (400 for SemIf rules); its message is shown to the caller.
 * `code` names the kind of refusal for protocols whose error bodies carry one (TypeSafe's `error_type`, OpenAI's
 * `code`).
 */
export class RequestError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(message: string, status = 400, code = "invalid_request") {
    super(message);
    this.name = "RequestError";
    this.status = status;
    this.code = code;
  }
}

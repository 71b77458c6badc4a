/** A request the adapter refuses with a client status (400 for SemIf rules); its message is shown to the caller. */
export class RequestError extends Error {
  readonly status: number;

  constructor(message: string, status = 400) {
    super(message);
    this.name = "RequestError";
    this.status = status;
  }
}

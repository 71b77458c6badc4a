import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";

/** More than SageMaker's largest invocation payload (25 MB), so a SageMaker client's refused body is always read. */
const DRAIN_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Answers a request whose body is still arriving (refused before or while it was read), then reads and discards
 * the rest of the body before closing: closing with unread bytes makes the kernel reset the connection, and a
 * client that sends its whole body before reading (Python urllib, boto3) then sees a broken pipe instead of the
 * answer. The answer is written at once, so a client that reads while it sends has it immediately. The drain is
 * bounded by `DRAIN_MAX_BYTES` and `lingerMs`; past either the connection is closed as it is.
 */
export function answerBeforeBody(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  headers: OutgoingHttpHeaders,
  text: string,
  lingerMs: number,
): void {
  response.writeHead(status, { ...headers, connection: "close" });
  response.write(text);
  let drained = 0;
  const close = () => {
    clearTimeout(linger);
    request.off("data", onData).off("end", close).off("close", close);
    response.end();
  };
  const onData = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_MAX_BYTES) close();
  };
  const linger = setTimeout(close, lingerMs);
  request.on("data", onData).on("end", close).on("close", close);
  request.resume();
}

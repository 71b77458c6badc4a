import type { IncomingMessage } from "node:http";
import { ContentEncodingError, decodeRequestBody } from "../contract/content-encoding.ts";
import { JsonTooDeepError, MAX_JSON_DEPTH, parseJsonWithinDepth } from "../contract/json-depth.ts";
import { RequestError } from "../engine/request-error.ts";
import type { BodyKind } from "./admission.ts";
import type { Exchange } from "./exchange.ts";

/**
 * The request's JSON body (for JSON Lines, the list of its records), or `ok: false` once its refusal (408, 400) has
 * been answered.
 */
export async function receiveBody(
  exchange: Exchange,
  kind: BodyKind,
  deadlineMs: number,
  maxBytes: number,
): Promise<{ ok: true; body: unknown } | { ok: false }> {
  try {
    const bytes = decodedBody(await readBody(exchange.request, deadlineMs), exchange.request, maxBytes);
    return { ok: true, body: kind === "json" ? parseJsonBody(bytes) : parseJsonLines(bytes.toString("utf8")) };
  } catch (error) {
    exchange.fail(error);
    return { ok: false };
  }
}

/**
 * Reads a request's body, which must arrive completely within `deadlineMs` of its headers, else 408: a client
 * trickling its body holds a body slot for at most that long.
 */
function readBody(request: IncomingMessage, deadlineMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const settle = (outcome: () => void) => {
      clearTimeout(deadline);
      request.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
      outcome();
    };
    // Node's parser delivers at most Content-Length bytes as this request's body.
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const onEnd = () => settle(() => resolve(Buffer.concat(chunks)));
    const onError = (error: Error) => settle(() => reject(error));
    const onClose = () =>
      settle(() => reject(new RequestError("Request body ended before Content-Length bytes arrived")));
    const deadline = setTimeout(
      () => settle(() => reject(new RequestError(`Request body did not arrive within ${deadlineMs} ms`, 408))),
      deadlineMs,
    );
    request.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose);
  });
}

/** The body as sent, decoded by its Content-Encoding (TypeSafe's SDK sends zstd); no more than `maxBytes` decoded. */
function decodedBody(sent: Buffer, request: IncomingMessage, maxBytes: number): Buffer {
  try {
    return Buffer.from(decodeRequestBody(sent, request.headers["content-encoding"], maxBytes));
  } catch (error) {
    if (error instanceof ContentEncodingError) throw new RequestError(error.message, error.status);
    throw error;
  }
}

/** The body as JSON; 400 for text that is not JSON or nests deeper than MAX_JSON_DEPTH. */
function parseJsonBody(body: Buffer): unknown {
  return parseJsonText(body.toString("utf8"), "Request body");
}

function parseJsonText(text: string, what: string): unknown {
  try {
    return parseJsonWithinDepth(text);
  } catch (error) {
    if (error instanceof JsonTooDeepError) {
      throw new RequestError(`${what} nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`);
    }
    throw new RequestError(`${what} is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * A JSON Lines body's records: one JSON request body per line (`\n` ends a line, a `\r` before it is dropped, the
 * last line may end without one). 400 naming the line when one is empty or not JSON.
 */
function parseJsonLines(text: string): unknown[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.map((line, index) => {
    const record = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (record.trim() === "") throw new RequestError(`line ${index + 1}: the record is empty`);
    return parseJsonText(record, `line ${index + 1}: the record`);
  });
}

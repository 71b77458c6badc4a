import type { IncomingMessage } from "node:http";
import { JsonTooDeepError, MAX_JSON_DEPTH, parseJsonWithinDepth } from "../contract/json-depth.ts";
import { RequestError } from "../engine/request-error.ts";
import type { Exchange } from "./exchange.ts";

/** The request's JSON body, or `ok: false` once its refusal (408, 400) has been answered. */
export async function receiveJson(
  exchange: Exchange,
  deadlineMs: number,
): Promise<{ ok: true; body: unknown } | { ok: false }> {
  try {
    return { ok: true, body: parseJsonBody(await readBody(exchange.request, deadlineMs)) };
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

/** The body as JSON; 400 for text that is not JSON or nests deeper than MAX_JSON_DEPTH. */
function parseJsonBody(body: Buffer): unknown {
  try {
    return parseJsonWithinDepth(body.toString("utf8"));
  } catch (error) {
    if (error instanceof JsonTooDeepError) {
      throw new RequestError(`Request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`);
    }
    throw new RequestError(`Request body is not valid JSON: ${(error as Error).message}`);
  }
}

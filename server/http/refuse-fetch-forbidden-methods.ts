import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ConsoleErrorBody } from "../../contract/http/error-body.ts";

const REQUEST_START = "http.server.request.start";

/** The methods the console's routes take; what `Allow` says. */
export const allowedMethods = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"];

/**
 * Methods the Fetch standard forbids in `new Request` (CONNECT, TRACE, TRACK). Node's parser passes TRACE to the
 * server (it answers TRACK with 400 and CONNECT as a tunnel), and Next.js builds a `Request` for every request
 * before the proxy or a route sees it, so a TRACE was a 500 ("'TRACE' HTTP method is unsupported").
 */
const fetchForbidden = new Set(["CONNECT", "TRACE", "TRACK"]);

/**
 * Answers a request with a method the Fetch standard forbids with 405, the console's error body and `Allow`, on
 * Node's `http.server.request.start` diagnostics channel, before Next.js reads the request. Installed once per
 * process by `instrumentation.ts`. Returns the uninstall.
 */
export function refuseFetchForbiddenMethods(): () => void {
  const refuse = (message: unknown) => {
    const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
    const method = (request.method ?? "").toUpperCase();
    if (!fetchForbidden.has(method)) return;
    const body: ConsoleErrorBody = {
      error: {
        code: "method_not_allowed",
        message: `The console does not take ${method} requests; it takes ${allowedMethods.join(", ")}.`,
      },
    };
    response.writeHead(405, { "content-type": "application/json", allow: allowedMethods.join(", ") });
    response.end(JSON.stringify(body));
  };
  subscribe(REQUEST_START, refuse);
  return () => unsubscribe(REQUEST_START, refuse);
}

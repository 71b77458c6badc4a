import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import { type ForwardingSettings, forwardedTrustedFrom, PEER_ADDRESS_HEADER, trustedProxies } from "./forwarded.ts";

const FORWARDED = ["x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port"];
const REQUEST_START = "http.server.request.start";

/**
 * Next.js gives route handlers no socket, and fills `X-Forwarded-*` from the connection only where the client sent
 * none. This hook sees every request of the process's HTTP server before Next.js does (Node's
 * `http.server.request.start` diagnostics channel) and stamps the TCP peer's address as `x-console-peer-address`,
 * replacing any a client sent. Unless the peer is a proxy the operator configured (`CONSOLE_TRUSTED_PROXIES`,
 * `CONSOLE_PUBLIC_ORIGIN`) it also drops the request's `X-Forwarded-*`, so Next.js derives them, and the request
 * URL's scheme, from the connection itself. Installed once per process by `instrumentation.ts`; a bad
 * `CONSOLE_TRUSTED_PROXIES` stops start-up. Returns the uninstall.
 */
export function stampPeerAddresses(settings: ForwardingSettings): () => void {
  trustedProxies(settings);
  const stamp = (message: unknown) => {
    const { request } = message as { request: IncomingMessage };
    const peer = request.socket.remoteAddress ?? null;
    request.headers[PEER_ADDRESS_HEADER] = peer ?? "";
    if (!forwardedTrustedFrom(peer, settings)) for (const name of FORWARDED) delete request.headers[name];
  };
  subscribe(REQUEST_START, stamp);
  return () => unsubscribe(REQUEST_START, stamp);
}

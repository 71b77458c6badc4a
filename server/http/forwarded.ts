import { type BlockList, isIP } from "node:net";
import type { ConsoleConfig } from "../config.ts";
import { parseProxyList } from "./proxy-list.ts";

/** The settings that say which proxies in front of the console are believed. */
export type ForwardingSettings = Pick<ConsoleConfig, "CONSOLE_TRUSTED_PROXIES" | "CONSOLE_PUBLIC_ORIGIN">;

/**
 * The TCP peer of a request, stamped by the console's own server hook (`peer-address.ts`) over anything a client
 * sent under this name. Absent when a handler is called without that server (tests).
 */
export const PEER_ADDRESS_HEADER = "x-console-peer-address";

const proxyLists = new Map<string, BlockList>();

/** `CONSOLE_TRUSTED_PROXIES`: comma-separated addresses or CIDR ranges of the proxies in front of the console. */
export function trustedProxies(settings: ForwardingSettings): BlockList | null {
  const raw = settings.CONSOLE_TRUSTED_PROXIES?.trim();
  if (!raw) return null;
  let list = proxyLists.get(raw);
  if (!list) {
    try {
      list = parseProxyList(raw);
    } catch (error) {
      throw new Error(`CONSOLE_TRUSTED_PROXIES: ${(error as Error).message}.`);
    }
    proxyLists.set(raw, list);
  }
  return list;
}

/** `::ffff:10.0.0.1` (an IPv4 client on a dual-stack socket) is 10.0.0.1. */
function normalised(address: string): string {
  const bare = address.trim().replace(/^\[|\]$/g, "");
  return bare.toLowerCase().startsWith("::ffff:") && isIP(bare.slice(7)) === 4 ? bare.slice(7) : bare;
}

function isTrustedProxy(list: BlockList, address: string): boolean {
  const bare = normalised(address);
  const family = isIP(bare);
  return family !== 0 && list.check(bare, family === 6 ? "ipv6" : "ipv4");
}

function peerOf(request: Request): string | null {
  const peer = request.headers.get(PEER_ADDRESS_HEADER);
  return peer ? normalised(peer) : null;
}

/**
 * Whether `X-Forwarded-*` headers from this TCP peer may be believed: only when the operator said a proxy is in
 * front, by `CONSOLE_TRUSTED_PROXIES` (then only from those addresses) or by `CONSOLE_PUBLIC_ORIGIN`. Otherwise
 * any client could name its own address, host or scheme.
 */
export function forwardedTrustedFrom(peer: string | null, settings: ForwardingSettings): boolean {
  const proxies = trustedProxies(settings);
  if (proxies) return peer !== null && isTrustedProxy(proxies, peer);
  return Boolean(settings.CONSOLE_PUBLIC_ORIGIN);
}

export function forwardedHeadersTrusted(request: Request, settings: ForwardingSettings): boolean {
  return forwardedTrustedFrom(peerOf(request), settings);
}

/**
 * The client's address: the TCP peer; behind trusted proxies, the right-most `X-Forwarded-For` entry that is not
 * one of them (each proxy appends the address it received from). `unknown` when neither is known.
 */
export function clientAddress(request: Request, settings: ForwardingSettings): string {
  const peer = peerOf(request);
  if (!forwardedHeadersTrusted(request, settings)) return peer ?? "unknown";
  const proxies = trustedProxies(settings);
  const hops = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map(normalised)
    .filter((hop) => isIP(hop) !== 0);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!proxies || !isTrustedProxy(proxies, hops[i]!)) return hops[i]!;
  }
  return hops[0] ?? peer ?? "unknown";
}

import { BlockList, isIP } from "node:net";
import type { Env } from "../auth/env.ts";

/**
 * The TCP peer of a request, stamped by the console's own server hook (`peer-address.ts`) over anything a client
 * sent under this name. Absent when a handler is called without that server (tests).
 */
export const PEER_ADDRESS_HEADER = "x-console-peer-address";

const proxyLists = new Map<string, BlockList>();

/** `CONSOLE_TRUSTED_PROXIES`: comma-separated addresses or CIDR ranges of the proxies in front of the console. */
export function trustedProxies(env: Env): BlockList | null {
  const raw = env.CONSOLE_TRUSTED_PROXIES?.trim();
  if (!raw) return null;
  let list = proxyLists.get(raw);
  if (!list) {
    list = new BlockList();
    for (const entry of raw.split(",").map((part) => part.trim())) {
      const [address = "", prefix] = entry.split("/");
      const family = isIP(address);
      const bits = prefix === undefined ? (family === 6 ? 128 : 32) : Number(prefix);
      if (family === 0 || !Number.isInteger(bits) || bits < 0 || bits > (family === 6 ? 128 : 32)) {
        throw new Error(`CONSOLE_TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range (e.g. 10.0.0.0/8).`);
      }
      list.addSubnet(address, bits, family === 6 ? "ipv6" : "ipv4");
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
export function forwardedTrustedFrom(peer: string | null, env: Env): boolean {
  const proxies = trustedProxies(env);
  if (proxies) return peer !== null && isTrustedProxy(proxies, peer);
  return Boolean(env.CONSOLE_PUBLIC_ORIGIN);
}

export function forwardedHeadersTrusted(request: Request, env: Env): boolean {
  return forwardedTrustedFrom(peerOf(request), env);
}

/**
 * The client's address: the TCP peer; behind trusted proxies, the right-most `X-Forwarded-For` entry that is not
 * one of them (each proxy appends the address it received from). `unknown` when neither is known.
 */
export function clientAddress(request: Request, env: Env): string {
  const peer = peerOf(request);
  if (!forwardedHeadersTrusted(request, env)) return peer ?? "unknown";
  const proxies = trustedProxies(env);
  const hops = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map(normalised)
    .filter((hop) => isIP(hop) !== 0);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!proxies || !isTrustedProxy(proxies, hops[i]!)) return hops[i]!;
  }
  return hops[0] ?? peer ?? "unknown";
}

import http from "node:http";
import type { AddressInfo } from "node:net";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proxy } from "@/proxy.ts";
import { expectedOrigins } from "@/server/auth/same-origin.ts";
import { isTls, sessionCookie } from "@/server/auth/session.ts";
import { consoleConfig } from "@/server/config.ts";
import {
  clientAddress,
  forwardedHeadersTrusted,
  PEER_ADDRESS_HEADER,
  trustedProxies,
} from "@/server/http/forwarded.ts";
import { stampPeerAddresses } from "@/server/http/peer-address.ts";
import { addUser, useTemporaryConsole } from "./support.ts";

/**
 * Issue 12, Low 13: `X-Forwarded-*` is believed only when the operator configured a proxy (`CONSOLE_TRUSTED_PROXIES`,
 * or `CONSOLE_PUBLIC_ORIGIN`); otherwise a client could choose the address it is throttled by, the host of
 * redirects and whether cookies are marked Secure.
 */

const forged = {
  "x-forwarded-for": "203.0.113.66",
  "x-forwarded-host": "evil.example",
  "x-forwarded-proto": "https",
  [PEER_ADDRESS_HEADER]: "198.51.100.1",
};

/** What a handler behind the hook sees of a request carrying the forged headers. */
async function seenBehindHook(env: Record<string, string>): Promise<Record<string, string | undefined>> {
  const uninstall = stampPeerAddresses(env);
  const server = http.createServer((request, response) => {
    const pick = (name: string) => request.headers[name] as string | undefined;
    response.end(JSON.stringify(Object.fromEntries(Object.keys(forged).map((name) => [name, pick(name)]))));
  });
  try {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return (await (await fetch(`http://127.0.0.1:${port}/`, { headers: forged })).json()) as Record<string, string>;
  } finally {
    uninstall();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("the server hook that stamps the TCP peer", () => {
  it("replaces a forged peer header and drops X-Forwarded-* when no proxy is configured", async () => {
    expect(await seenBehindHook({})).toEqual({ [PEER_ADDRESS_HEADER]: "127.0.0.1" });
  });

  it("keeps X-Forwarded-* from a configured proxy, and drops them from any other peer", async () => {
    expect(await seenBehindHook({ CONSOLE_TRUSTED_PROXIES: "127.0.0.1" })).toEqual({
      ...forged,
      [PEER_ADDRESS_HEADER]: "127.0.0.1",
    });
    expect(await seenBehindHook({ CONSOLE_TRUSTED_PROXIES: "10.0.0.0/8, fd00::/8" })).toEqual({
      [PEER_ADDRESS_HEADER]: "127.0.0.1",
    });
  });

  it("refuses a CONSOLE_TRUSTED_PROXIES it cannot read, naming the entry", () => {
    expect(() => trustedProxies({ CONSOLE_TRUSTED_PROXIES: "10.0.0.0/8, proxy.internal" })).toThrow(
      'CONSOLE_TRUSTED_PROXIES: "proxy.internal" is not an IP address or CIDR range',
    );
    expect(() => trustedProxies({ CONSOLE_TRUSTED_PROXIES: "10.0.0.0/33" })).toThrow(/"10.0.0.0\/33"/);
  });
});

describe("what the console believes of a request", () => {
  const request = (peer: string) =>
    new Request("http://127.0.0.1:3000/api/x", {
      headers: { ...forged, host: "127.0.0.1:3000", [PEER_ADDRESS_HEADER]: peer },
    });

  it("without a configured proxy: the peer address, the Host header, plain HTTP", () => {
    const plain = request("192.0.2.10");
    expect(forwardedHeadersTrusted(plain, {})).toBe(false);
    expect(clientAddress(plain, {})).toBe("192.0.2.10");
    expect(expectedOrigins(plain, {})).toEqual(["http://127.0.0.1:3000"]);
    expect(isTls(plain, {})).toBe(false);
  });

  it("from a trusted proxy: the forwarded client, host and scheme", () => {
    const env = { CONSOLE_TRUSTED_PROXIES: "192.0.2.0/24" };
    const viaProxy = request("::ffff:192.0.2.10");
    expect(clientAddress(viaProxy, env)).toBe("203.0.113.66");
    expect(expectedOrigins(viaProxy, env)).toEqual(["https://evil.example"]);
    expect(isTls(viaProxy, env)).toBe(true);
    expect(clientAddress(request("192.0.3.1"), env)).toBe("192.0.3.1");
  });

  it("with CONSOLE_PUBLIC_ORIGIN alone: the right-most forwarded address, the one the proxy in front added", () => {
    const env = { CONSOLE_PUBLIC_ORIGIN: "https://console.example.com" };
    const chained = new Request("http://internal/api/x", {
      headers: { "x-forwarded-for": "10.0.0.1, 203.0.113.7", [PEER_ADDRESS_HEADER]: "10.9.9.9" },
    });
    expect(clientAddress(chained, env)).toBe("203.0.113.7");
  });
});

describe("through the proxy", () => {
  let temp: ReturnType<typeof useTemporaryConsole>;
  beforeAll(async () => {
    temp = useTemporaryConsole();
    await addUser("vera", "viewer");
  });
  afterAll(() => temp.restore());

  it("sends a signed-out browser to the login page on the Host it used, not a forged X-Forwarded-Host", async () => {
    const response = await proxy(
      new NextRequest("http://127.0.0.1:3000/endpoints", { headers: { ...forged, host: "127.0.0.1:3000" } }),
    );
    expect(response.status).toBe(307);
    expect(response.headers.get("location")).toBe("http://127.0.0.1:3000/login?next=%2Fendpoints");
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  it("does not mark the session cookie Secure because a client claims X-Forwarded-Proto: https", () => {
    const cookie = sessionCookie(new Request("http://127.0.0.1:3000/", { headers: forged }), "token", consoleConfig());
    expect(cookie).not.toContain("Secure");
  });
});

import http from "node:http";
import type { AddressInfo } from "node:net";
import { NextRequest } from "next/server";
import { proxy } from "../../proxy.ts";

export type RouteHandler = (request: Request) => Promise<Response>;

export interface RouteServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The console's own route handlers served over loopback HTTP, each request through the console's proxy (the auth
 * gate) first, as `next start` does, for clients that need a URL (the official SDKs). Paths are matched exactly.
 */
export async function serveRoutes(routes: Record<string, Partial<Record<string, RouteHandler>>>): Promise<RouteServer> {
  const server = http.createServer(async (incoming, outgoing) => {
    const url = `http://${incoming.headers.host}${incoming.url}`;
    const method = incoming.method ?? "GET";
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const hasBody = method !== "GET" && method !== "HEAD";
    const init = { method, headers, body: hasBody ? Buffer.concat(chunks) : undefined };
    const gated = await proxy(new NextRequest(url, init));
    let response: Response = gated;
    if (gated.headers.get("x-middleware-next") === "1") {
      const handler = routes[new URL(url).pathname]?.[method];
      response = handler ? await handler(new Request(url, init)) : new Response("not found", { status: 404 });
    }
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

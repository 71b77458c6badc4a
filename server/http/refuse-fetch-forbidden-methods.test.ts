import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { consoleErrorBodySchema } from "../../contract/http/error-body.ts";
import { refuseFetchForbiddenMethods } from "./refuse-fetch-forbidden-methods.ts";

/** A server that does what Next.js does first with every request: builds a fetch `Request` from it. */
function nextLikeServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (res.writableEnded) return;
    try {
      new Request(`http://127.0.0.1${req.url}`, { method: req.method });
      res.writeHead(200).end("ok");
    } catch {
      res.writeHead(500).end("Internal Server Error");
    }
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    ),
  );
}

function send(url: string, method: string): Promise<{ status: number; allow?: string; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .request(`${url}/api/health`, { method }, (res) => {
        let body = "";
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow, body }));
      })
      .on("error", reject)
      .end();
  });
}

describe("refuseFetchForbiddenMethods", () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it("without it, a TRACE is a 500 where the request becomes a fetch Request", async () => {
    const server = await nextLikeServer();
    cleanups.push(server.close);
    expect((await send(server.url, "TRACE")).status).toBe(500);
  });

  it("answers TRACE with 405, Allow and the console's error body before the server's handler", async () => {
    cleanups.push(refuseFetchForbiddenMethods());
    const server = await nextLikeServer();
    cleanups.push(server.close);
    const answer = await send(server.url, "TRACE");
    expect(answer.status).toBe(405);
    expect(answer.allow).toBe("GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE");
    const body = consoleErrorBodySchema.parse(JSON.parse(answer.body));
    expect(body.error).toEqual({
      code: "method_not_allowed",
      message: "The console does not take TRACE requests; it takes GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE.",
    });
  });

  it("lets every other method through to the handler", async () => {
    cleanups.push(refuseFetchForbiddenMethods());
    const server = await nextLikeServer();
    cleanups.push(server.close);
    for (const method of ["GET", "POST", "DELETE", "PROPFIND"])
      expect((await send(server.url, method)).status).toBe(200);
  });
});

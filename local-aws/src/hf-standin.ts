import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { parseArgs } from "node:util";
import { containedPath } from "./contained-path.ts";

/**
 * A loopback stand-in for the Hugging Face Hub's file API: `GET /<owner>/<name>/resolve/<revision>/<file>` serves
 * `<root>/<owner>/<name>/<revision>/<file>` (with `Range: bytes=N-` for resumed downloads). Point the packager at it
 * with `HF_ENDPOINT=<url>`; tests and the browser tests use it because the real Hub is not reachable.
 */
export interface HubStandIn {
  url: string;
  close(): Promise<void>;
}

const RESOLVE = /^\/([\w.-]+)\/([\w.-]+)\/resolve\/([\w.-]+)\/(.+)$/;

export function hubFilePath(root: string, pin: { repo: string; revision: string; file: string }): string {
  return path.join(root, ...pin.repo.split("/"), pin.revision, ...pin.file.split("/"));
}

/** Places `bytes` where the stand-in serves them for this pin. */
export function publishHubFile(
  root: string,
  pin: { repo: string; revision: string; file: string },
  source: string | Buffer,
) {
  const target = hubFilePath(root, pin);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  if (Buffer.isBuffer(source)) fs.writeFileSync(target, source);
  else fs.copyFileSync(source, target);
}

/** The file a `/<owner>/<name>/resolve/<revision>/<file>` path names under `root`, or null when it names none. */
function servedFile(root: string, pathname: string): string | null {
  try {
    const [, owner = "", name = "", revision = "", file = ""] = RESOLVE.exec(decodeURIComponent(pathname)) ?? [];
    return file ? containedPath(root, owner, name, revision, ...file.split("/")) : null;
  } catch {
    return null;
  }
}

export async function startHubStandIn(options: { root: string; port?: number }): Promise<HubStandIn> {
  const root = path.resolve(options.root);
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405).end();
      return;
    }
    const target = servedFile(root, url.pathname);
    if (!target || !fs.existsSync(target) || !fs.statSync(target).isFile()) {
      response.writeHead(404, { "content-type": "text/plain", "x-error-code": "EntryNotFound" }).end("Entry not found");
      return;
    }
    const size = fs.statSync(target).size;
    const range = /^bytes=(\d+)-$/.exec(String(request.headers.range ?? ""));
    const start = range ? Number(range[1]) : 0;
    if (range && start >= size) {
      response.writeHead(416, { "content-range": `bytes */${size}` }).end();
      return;
    }
    const headers: Record<string, string | number> = { "content-length": size - start, "accept-ranges": "bytes" };
    if (range) headers["content-range"] = `bytes ${start}-${size - 1}/${size}`;
    response.writeHead(range ? 206 : 200, headers);
    if (request.method === "HEAD" || size === start) response.end();
    else fs.createReadStream(target, { start }).pipe(response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `tsx local-aws/src/hf-standin.ts --root <dir> [--port <n>]`: prints `HF_ENDPOINT=<url>` and serves until stopped. */
async function main() {
  const { values } = parseArgs({ options: { root: { type: "string" }, port: { type: "string" } } });
  if (!values.root) {
    process.stderr.write("usage: hf-standin.ts --root <dir holding <owner>/<name>/<revision>/<file>> [--port <n>]\n");
    process.exit(2);
  }
  const standIn = await startHubStandIn({ root: values.root, port: Number(values.port ?? 0) });
  process.stdout.write(`HF_ENDPOINT=${standIn.url}\n`);
  const stop = () => void standIn.close().then(() => process.exit(0));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) void main();

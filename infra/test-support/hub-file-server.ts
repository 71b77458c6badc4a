import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface HubFileServerOptions {
  /** Files by `<repo>/resolve/<revision>/<file>` path (no leading slash). */
  files: Map<string, Buffer>;
  /** The first `count` responses of a file end by destroying the socket after `afterBytes` bytes of body. */
  dropConnection?: { afterBytes: number; count: number };
  /** Serve these bytes instead of the real ones (a corrupted mirror or a tampered file). */
  corrupt?: boolean;
}

export interface RecordedRequest {
  path: string;
  range: string | undefined;
  authorization: string | undefined;
}

export interface HubFileServer {
  endpoint: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A Hugging Face Hub stand-in on loopback: `/resolve/` answers with a redirect to a CDN-like path, as the Hub
 * does, and the CDN path honours `Range` with 206 and `Content-Range`.
 */
export async function startHubFileServer(options: HubFileServerOptions): Promise<HubFileServer> {
  const requests: RecordedRequest[] = [];
  let drops = 0;

  const serveFile = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const range = req.headers.range?.match(/^bytes=(\d+)-$/);
    const start = range ? Number(range[1]) : 0;
    if (start >= body.length && range) {
      res.writeHead(416, { "Content-Range": `bytes */${body.length}` }).end();
      return;
    }
    const slice = body.subarray(start);
    const headers: Record<string, string | number> = { "Content-Length": slice.length, "Accept-Ranges": "bytes" };
    if (range) headers["Content-Range"] = `bytes ${start}-${body.length - 1}/${body.length}`;
    res.writeHead(range ? 206 : 200, headers);
    const drop = options.dropConnection;
    if (drop && drops < drop.count && slice.length > drop.afterBytes) {
      drops++;
      res.write(slice.subarray(0, drop.afterBytes), () => setTimeout(() => res.socket?.destroy(), 20));
      return;
    }
    res.end(slice);
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const path = decodeURIComponent(url.pathname.slice(1));
    requests.push({ path, range: req.headers.range, authorization: req.headers.authorization });
    if (path.startsWith("cdn/")) {
      const original = options.files.get(path.slice("cdn/".length));
      if (!original) return void res.writeHead(404).end();
      const body = options.corrupt
        ? Buffer.from(original.map((byte, i) => (i === 100 ? byte ^ 0xff : byte)))
        : original;
      return serveFile(req, res, body);
    }
    if (!options.files.has(path))
      return void res.writeHead(404, { "Content-Type": "text/plain" }).end("Entry not found");
    res.writeHead(302, { Location: `/cdn/${url.pathname.slice(1)}` }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

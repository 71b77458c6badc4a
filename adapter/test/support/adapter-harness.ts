import { existsSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readConfig } from "../../src/engine/config.ts";
import type { Engine } from "../../src/engine/engine.ts";
import { type RunningAdapter, startAdapter } from "../../src/http/app.ts";
import type { TensorType } from "./gguf-writer.ts";
import { type ModelKind, type ModelSpec, modelSpec, writeModel } from "./llama-model.ts";

/** Test helpers: generated models, an adapter on 127.0.0.1 with a random port, and raw HTTP calls. */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** `<repo>/../shared/<relative>`, or null when this checkout has no shared folder beside it (fresh CI clone). */
export function sharedPath(relative: string): string | null {
  const file = path.resolve(repoRoot, "..", "shared", relative);
  return existsSync(file) ? file : null;
}

export type GeneratedModel = { file: string; spec: ModelSpec; cleanup(): void };

export function generateModel(kind: ModelKind, weightType?: TensorType): GeneratedModel {
  const directory = mkdtempSync(path.join(os.tmpdir(), "adapter-model-"));
  const file = path.join(directory, `${kind}.gguf`);
  const spec = modelSpec(kind, { weightType });
  writeModel(spec, file);
  return { file, spec, cleanup: () => rmSync(directory, { recursive: true, force: true }) };
}

export type TestAdapter = RunningAdapter & { engine: Engine; logs: Record<string, unknown>[] };

export async function startTestAdapter(modelPath: string, env: Record<string, string> = {}): Promise<TestAdapter> {
  const logs: Record<string, unknown>[] = [];
  // One sequence unless a test asks for more: the busy and admission tests hold "the model's only sequence".
  const config = readConfig({
    ADAPTER_MODEL_PATH: modelPath,
    ADAPTER_THREADS: "1",
    ADAPTER_PARALLEL: "1",
    SEMIF_MAX_TOKENS: "2048",
    ...env,
  });
  const adapter = await startAdapter(config, { host: "127.0.0.1", port: 0, log: (line) => logs.push(line) });
  const engine = await adapter.ready;
  return Object.assign(adapter, { engine, logs });
}

export type RawResponse = { status: number; body: unknown; text: string; headers: http.IncomingHttpHeaders };

/** One HTTP request with full control of headers (Content-Length included) and, optionally, a delayed body. */
export function rawRequest(
  url: string,
  options: {
    method?: string;
    path?: string;
    headers?: Record<string, string | number>;
    body?: string | Buffer;
    /** Write the body only when this promise settles (holds the request open after its headers). */
    bodyAfter?: Promise<unknown>;
    /** The client's address (any 127.x.y.z on loopback). */
    localAddress?: string;
  } = {},
): Promise<RawResponse> {
  const target = new URL(options.path ?? "/invocations", url);
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      target,
      {
        method: options.method ?? "POST",
        headers: {
          ...(body !== undefined ? { "content-type": "application/json", "content-length": body.length } : {}),
          ...options.headers,
        },
        agent: false,
        localAddress: options.localAddress,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {}
          resolve({ status: response.statusCode ?? 0, body: parsed, text, headers: response.headers });
        });
      },
    );
    request.on("error", reject);
    if (body === undefined) {
      request.end();
    } else if (options.bodyAfter) {
      request.flushHeaders();
      options.bodyAfter.then(() => request.end(body));
    } else {
      request.end(body);
    }
  });
}

/**
 * Leases the model's only sequence (ADAPTER_PARALLEL=1) until `release()`, as a long evaluation would: a request
 * sent meanwhile is admitted and waits for the model, holding the admission slot.
 */
export function holdModel(adapter: TestAdapter): { release(): void } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  void adapter.engine.pool.lease([], () => released);
  return { release };
}

export const postJson = (url: string, payload: unknown, headers: Record<string, string> = {}, localAddress?: string) =>
  rawRequest(url, { body: JSON.stringify(payload), headers, localAddress });

export function decision(overrides: Record<string, unknown> = {}) {
  return {
    id: "d1",
    state: "Policy: refunds require a receipt. The customer has a receipt and bought 12 days ago.",
    question: "Is the refund permitted?",
    options: [
      { id: "yes", description: "Every condition is met." },
      { id: "no", description: "A condition is missing." },
    ],
    ...overrides,
  };
}

export type RawPost = {
  socket: net.Socket;
  /** The status code, as soon as the status line has arrived. */
  status: Promise<number>;
  /** Everything the server sent, and the socket error (e.g. EPIPE, ECONNRESET) if one ended it, once it closes. */
  closed: Promise<{ text: string; status: number; error: string | null }>;
};

/**
 * A POST /invocations on a plain socket: the headers (`Content-Length: contentLength`) at once, then `send` writes
 * the body as it likes. `localAddress` picks the client's address (any 127.x.y.z on loopback).
 */
export function rawPost(
  url: string,
  options: {
    contentLength: number;
    headers?: Record<string, string>;
    localAddress?: string;
    send?: (socket: net.Socket) => Promise<void>;
  },
): RawPost {
  const { hostname, port } = new URL(url);
  const socket = net.connect({ port: Number(port), host: hostname, localAddress: options.localAddress });
  let text = "";
  let error: string | null = null;
  const statusOf = () => Number(text.split(" ")[1]);
  const status = new Promise<number>((resolve, reject) => {
    socket.on("data", (chunk) => {
      text += chunk.toString("utf8");
      if (text.includes("\r\n")) resolve(statusOf());
    });
    socket.on("close", () => reject(new Error(`closed before a status line${error ? ` (${error})` : ""}`)));
  });
  status.catch(() => undefined);
  const closed = new Promise<{ text: string; status: number; error: string | null }>((resolve) => {
    socket.on("error", (cause: NodeJS.ErrnoException) => {
      error = cause.code ?? cause.message;
    });
    socket.on("close", () => resolve({ text, status: statusOf(), error }));
  });
  socket.on("connect", () => {
    const headers = Object.entries({ "Content-Type": "application/json", ...options.headers })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("");
    socket.write(
      `POST /invocations HTTP/1.1\r\nHost: ${hostname}\r\nContent-Length: ${options.contentLength}\r\n${headers}\r\n`,
    );
    void options.send?.(socket).catch(() => undefined);
  });
  return { socket, status, closed };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A client that sends its body one byte every `gapMs` (the slow-body probe). */
export function trickle(url: string, body: string, gapMs: number, localAddress?: string): RawPost {
  const bytes = Buffer.from(body);
  return rawPost(url, {
    contentLength: bytes.length,
    headers: { Connection: "close" },
    localAddress,
    async send(socket) {
      for (const byte of bytes) {
        if (socket.destroyed) return;
        socket.write(Buffer.of(byte));
        await sleep(gapMs);
      }
    },
  });
}

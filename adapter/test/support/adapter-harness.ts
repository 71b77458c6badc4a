import { existsSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
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

export const postJson = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  rawRequest(url, { body: JSON.stringify(payload), headers });

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

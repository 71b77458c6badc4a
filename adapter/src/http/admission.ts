import type { IncomingMessage } from "node:http";
import { BUSY_ERROR, type ErrorBody } from "../contract/common.ts";
import type { Engine } from "../engine/engine.ts";
import { BodyReaders } from "./body-readers.ts";
import type { Exchange } from "./exchange.ts";
import { JSON_LINES_TYPE } from "./json-lines.ts";

export const LOADING_ERROR: ErrorBody = { error: "model is loading; retry the request", retryable: true };

/**
 * Bounded admission: at most `capacity` requests hold the model (evaluating or queued for a sequence); one more
 * is answered 503 "model is busy". Never an unbounded queue. The server checks `isFull` before reading a body (so
 * a busy adapter answers at once) and enters only once the body has arrived, so a slow upload never holds a slot.
 */
export class Admission {
  private inFlight = 0;

  constructor(readonly capacity: number) {}

  get current(): number {
    return this.inFlight;
  }

  get isFull(): boolean {
    return this.inFlight >= this.capacity;
  }

  tryEnter(): (() => void) | null {
    if (this.inFlight >= this.capacity) return null;
    this.inFlight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight--;
    };
  }
}

export type PostLimits = { maxBodyBytes: number; maxBodyReaders: number; maxBodyReadersPerPeer: number };

/** How a POST body is read: one JSON value, or JSON Lines (one request body per line, /invocations only). */
export type BodyKind = "json" | "jsonlines";

/**
 * The checks a POST passes before its body is read, in SemIf's order: 415 unless JSON, 400 unless Content-Length
 * is 1..SEMIF_MAX_BODY_BYTES, 503 while loading, when the model is busy, or when every body slot (or this client
 * address's share) is taken. Each refusal is answered here.
 */
export class PostAdmission {
  private readonly bodyReaders: BodyReaders;

  constructor(
    private readonly limits: PostLimits,
    readonly model: Admission,
  ) {
    this.bodyReaders = new BodyReaders(limits.maxBodyReaders, limits.maxBodyReadersPerPeer);
  }

  /** The engine, the body's kind and the release of the body slot taken, or null once a refusal was answered. */
  admit(
    exchange: Exchange,
    engine: Engine | null,
  ): { engine: Engine; kind: BodyKind; leaveBodySlot: () => void } | null {
    const { headers } = exchange.request;
    const kind = bodyKindOf(headers["content-type"], exchange.path);
    if (!kind) {
      exchange.respond(415, { error: "Content-Type must be application/json" });
      return null;
    }
    const length = Number(headers["content-length"]);
    if (!Number.isInteger(length) || length < 1 || length > this.limits.maxBodyBytes) {
      exchange.respond(400, { error: `Content-Length must be between 1 and ${this.limits.maxBodyBytes} bytes` });
      return null;
    }
    const leaveBodySlot = engine && !this.model.isFull ? this.bodyReaders.tryEnter(peerOf(exchange.request)) : null;
    if (!engine || !leaveBodySlot) {
      exchange.respond(503, engine ? BUSY_ERROR : LOADING_ERROR);
      return null;
    }
    return { engine, kind, leaveBodySlot };
  }
}

/** `application/json` anywhere; `application/jsonlines` (SageMaker Batch Transform's JSON Lines) on /invocations. */
function bodyKindOf(header: string | undefined, path: string): BodyKind | null {
  const type = (header ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/json") return "json";
  if (type === JSON_LINES_TYPE && path === "/invocations") return "jsonlines";
  return null;
}

function peerOf(request: IncomingMessage): string {
  return request.socket.remoteAddress ?? "unknown";
}

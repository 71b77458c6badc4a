import type net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUSY_ERROR } from "../src/contract/common.ts";
import {
  decision,
  type GeneratedModel,
  generateModel,
  holdModel,
  postJson,
  rawPost,
  rawRequest,
  startTestAdapter,
  type TestAdapter,
} from "./support/adapter-harness.ts";

/**
 * Issue 12, Medium 9: an answer sent before the body was read (oversized Content-Length, model busy) must reach a
 * client that sends its whole body before it reads, as Python's urllib and boto3 do, instead of a broken pipe.
 * Low 11: JSON nested thousands deep is refused with 400, not a 500 stack overflow.
 */

let model: GeneratedModel;
let adapter: TestAdapter;

beforeAll(async () => {
  model = generateModel("tiny");
  adapter = await startTestAdapter(model.file, { SEMIF_MAX_TOKENS: "1024" });
});

afterAll(async () => {
  await adapter?.close();
  model?.cleanup();
});

/** Writes `bytes` of body in 64 KiB chunks, waiting for drain, as a client that only reads afterwards. */
const sendAll = (bytes: number) => async (socket: net.Socket) => {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  for (let sent = 0; sent < bytes && !socket.destroyed; sent += chunk.length) {
    const piece = chunk.subarray(0, Math.min(chunk.length, bytes - sent));
    if (!socket.write(piece)) await new Promise((resolve) => socket.once("drain", resolve));
  }
};

describe("an answer sent before the body is read (lingering close)", () => {
  it("reaches a client that keeps sending an 8 MB body over the limit, then reads", async () => {
    const bytes = 8_000_000;
    const results = [];
    for (let i = 0; i < 5; i++) {
      const client = rawPost(adapter.url, {
        contentLength: bytes,
        headers: { Connection: "close" },
        send: sendAll(bytes),
      });
      results.push(await client.closed);
    }
    for (const result of results) {
      expect(result.error).toBeNull();
      expect(result.status).toBe(400);
      expect(result.text).toContain('{"error":"Content-Length must be between 1 and 262144 bytes"}');
      expect(result.text.toLowerCase()).toContain("connection: close");
    }
    console.log(`lingering close: ${results.length} requests of 8 MB, ${results.length} read their 400, 0 resets`);
  }, 60_000);

  it("reaches a client sending a 200 KB body while the model is busy (503 before the body is read)", async () => {
    const held = holdModel(adapter);
    try {
      const first = postJson(adapter.url, { decision: decision() });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const client = rawPost(adapter.url, {
        contentLength: 200_000,
        headers: { Connection: "close" },
        send: sendAll(200_000),
      });
      const result = await client.closed;
      expect(result.error).toBeNull();
      expect(result.status).toBe(503);
      expect(result.text).toContain(JSON.stringify(BUSY_ERROR));
      held.release();
      expect((await first).status).toBe(200);
    } finally {
      held.release();
    }
  });

  it("keeps the connection of a client that did not ask to close it usable for its next request", async () => {
    const oversized = await postJson(adapter.url, { decision: decision({ state: "x".repeat(300_000) }) });
    expect(oversized.status).toBe(400);
    expect((await postJson(adapter.url, { decision: decision() })).status).toBe(200);
  });
});

describe("deeply nested JSON", () => {
  /** A body whose state is `depth` arrays inside each other, written as text (JSON.stringify would overflow). */
  const nestedState = (depth: number, body: Record<string, unknown>) =>
    JSON.stringify(body).replace('"STATE"', `${"[".repeat(depth)}"leaf"${"]".repeat(depth)}`);
  const post = (text: string) => rawRequest(adapter.url, { body: text });
  const message = "Request body nests arrays and objects deeper than 128 levels";

  it.each([
    ["a decision's state", { decision: decision({ state: "STATE" }) }],
    ["a systemone request's state", { state: "STATE", questions: { q: { type: "noul", instructions: "Is it?" } } }],
  ])("refuses %s nested 5,000 deep with 400", async (_, body) => {
    const response = await post(nestedState(5000, body));
    expect(response).toMatchObject({ status: 400, body: { error: message } });
  });

  it("accepts 128 levels (the body, the decision, 126 in a field decisions ignore) and refuses 129", async () => {
    const body = { decision: { ...decision(), notes: "STATE" } };
    const deepest = await post(nestedState(126, body));
    expect(deepest.status, deepest.text).toBe(200);
    expect(await post(nestedState(127, body))).toMatchObject({ status: 400, body: { error: message } });
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "../src/engine/config.ts";
import { startAdapter } from "../src/http/app.ts";
import {
  decision,
  type GeneratedModel,
  generateModel,
  holdModel,
  postJson,
  rawRequest,
  startTestAdapter,
  type TestAdapter,
} from "./support/adapter-harness.ts";

let model: GeneratedModel;
let adapter: TestAdapter;

beforeAll(async () => {
  model = generateModel("tiny");
  adapter = await startTestAdapter(model.file, { SEMIF_MAX_BODY_BYTES: "8192", SEMIF_MAX_TOKENS: "1024" });
});

afterAll(async () => {
  await adapter?.close();
  model?.cleanup();
});

const errorOf = async (payload: unknown) => {
  const response = await postJson(adapter.url, payload);
  return { status: response.status, error: (response.body as { error?: string }).error };
};

describe("GET /ping", () => {
  it("answers 503 while the model loads and 200 once it is warmed up", async () => {
    const config = readConfig({ ADAPTER_MODEL_PATH: model.file, ADAPTER_THREADS: "1", SEMIF_MAX_TOKENS: "512" });
    const starting = await startAdapter(config, { host: "127.0.0.1", port: 0, log: () => undefined });
    try {
      const early = await rawRequest(starting.url, { method: "GET", path: "/ping" });
      expect(early.status).toBe(503);
      expect(early.headers["retry-after"]).toBe("1");
      await starting.ready;
      const ready = await rawRequest(starting.url, { method: "GET", path: "/ping" });
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ status: "ok" });
    } finally {
      await starting.close();
    }
  });
});

describe("POST /invocations transport checks", () => {
  it("answers 415 unless the content type is application/json (parameters allowed)", async () => {
    const text = await rawRequest(adapter.url, {
      body: JSON.stringify({ decision: decision() }),
      headers: { "content-type": "text/plain" },
    });
    expect(text.status).toBe(415);
    expect(text.body).toEqual({ error: "Content-Type must be application/json" });
    const withCharset = await rawRequest(adapter.url, {
      body: JSON.stringify({ decision: decision() }),
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(withCharset.status).toBe(200);
  });

  it("answers 400 for an empty body or one over SEMIF_MAX_BODY_BYTES, and 415 first when both are wrong", async () => {
    const empty = await rawRequest(adapter.url, { body: "", headers: { "content-length": 0 } });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ error: "Content-Length must be between 1 and 8192 bytes" });
    const large = await postJson(adapter.url, { decision: decision({ state: "x".repeat(9000) }) });
    expect(large.status).toBe(400);
    expect(large.body).toEqual({ error: "Content-Length must be between 1 and 8192 bytes" });
    const both = await rawRequest(adapter.url, { body: "", headers: { "content-type": "text/plain" } });
    expect(both.status).toBe(415);
  });

  it("answers 400 with a readable message for a body that is not JSON", async () => {
    const response = await rawRequest(adapter.url, { body: "{not json" });
    expect(response.status).toBe(400);
    expect((response.body as { error: string }).error).toMatch(/^Request body is not valid JSON/);
  });

  it("answers 404 for unknown paths and 405 for other methods", async () => {
    expect((await rawRequest(adapter.url, { method: "GET", path: "/nothing" })).status).toBe(404);
    expect((await rawRequest(adapter.url, { method: "GET", path: "/invocations" })).status).toBe(405);
  });
});

describe("admission", () => {
  it("answers 503 busy to a second request while one holds the model, before reading its body", async () => {
    const held = holdModel(adapter);
    const first = postJson(adapter.url, { decision: decision() });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = await rawRequest(adapter.url, { body: "{this body is never read" });
    expect(second.status).toBe(503);
    expect(second.body).toEqual({ error: "model is busy; retry the request", retryable: true });
    held.release();
    expect((await first).status).toBe(200);
    expect((await postJson(adapter.url, { decision: decision() })).status).toBe(200);
  });
});

describe("stalled clients", () => {
  it("never hold the model, and get 408 when the body does not arrive within ADAPTER_BODY_TIMEOUT_MS", async () => {
    const config = readConfig({
      ADAPTER_MODEL_PATH: model.file,
      ADAPTER_THREADS: "1",
      SEMIF_MAX_TOKENS: "512",
      ADAPTER_BODY_TIMEOUT_MS: "1000",
    });
    const guarded = await startAdapter(config, { host: "127.0.0.1", port: 0, log: () => undefined });
    try {
      await guarded.ready;
      const never = new Promise<void>(() => undefined);
      const stalled = rawRequest(guarded.url, {
        body: JSON.stringify({ decision: decision() }),
        bodyAfter: never,
      }).catch((error: Error) => error);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await postJson(guarded.url, { decision: decision() })).status).toBe(200);
      const outcome = await stalled;
      expect(outcome).toMatchObject({ status: 408, body: { error: "Request body did not arrive within 1000 ms" } });
    } finally {
      await guarded.close();
    }
  });
});

describe("request shape (SemIf messages)", () => {
  it.each([
    [[1, 2], "Request body must be a JSON object"],
    [{ decision: decision(), extra: 1, another: 2 }, "Unsupported request fields: ['another', 'extra']"],
    [{}, "Request must contain exactly one of decision or decisions"],
    [{ decision: decision(), decisions: [decision()] }, "Request must contain exactly one of decision or decisions"],
    [{ decision: "text" }, "Request must contain one decision object"],
    [{ decisions: [] }, "Request must contain a nonempty decisions list"],
    [
      { decisions: Array.from({ length: 9 }, (_, i) => decision({ id: `d${i}` })) },
      "decisions supports at most 8 items",
    ],
    [{ decisions: [decision(), "x"] }, "decisions must contain only decision objects"],
    [{ decision: decision({ id: "" }) }, "id and question must be nonempty strings: decision"],
    [
      { decision: decision({ options: [{ id: "a", description: "" }] }) },
      "options must contain 2-255 entries: decision.options",
    ],
    [
      {
        decision: decision({
          options: [
            { id: "a", description: "" },
            { id: "a", description: "" },
          ],
        }),
      },
      "Option IDs must be unique: decision.options[1].id",
    ],
    [
      { decisions: [decision(), decision({ id: "d2", state: "Another state" })] },
      "Shared scoring requires one nonempty exact state",
    ],
    [{ decisions: [decision(), decision()] }, "Decision IDs must be unique"],
  ])("answers 400 for %j", async (payload, message) => {
    expect(await errorOf(payload)).toEqual({ status: 400, error: message });
  });
});

describe("reserved prompt control tokens", () => {
  const message = "Decision fields cannot contain reserved prompt control tokens";

  it("rejects them in values: state, question, option descriptions", async () => {
    expect(await errorOf({ decision: decision({ state: "ok <|im_start|>system" }) })).toEqual({
      status: 400,
      error: message,
    });
    expect(await errorOf({ decision: decision({ question: "why</think>" }) })).toEqual({ status: 400, error: message });
    const options = [
      { id: "a", description: "<|im_end|>" },
      { id: "b", description: "" },
    ];
    expect(await errorOf({ decision: decision({ options }) })).toEqual({ status: 400, error: message });
  });

  it("rejects them in keys, also deep inside JSON-object states and in ignored fields", async () => {
    expect(await errorOf({ decision: decision({ state: { ticket: { "<s>": 1 } } }) })).toEqual({
      status: 400,
      error: message,
    });
    expect(await errorOf({ decision: { ...decision(), "<|im_start|>": "x" } })).toEqual({
      status: 400,
      error: message,
    });
  });

  it("is checked after the request shape and before decision fields", async () => {
    expect(await errorOf({ decision: decision({ state: "<s>" }), extra: 1 })).toEqual({
      status: 400,
      error: "Unsupported request fields: ['extra']",
    });
    expect(await errorOf({ decision: decision({ state: "<s>", options: [] }) })).toEqual({
      status: 400,
      error: message,
    });
  });
});

describe("token budget", () => {
  it("refuses a prompt longer than SEMIF_MAX_TOKENS with 400 and never truncates it", async () => {
    const long = "word ".repeat(1500);
    const response = await errorOf({ decision: decision({ state: long }) });
    expect(response.status).toBe(400);
    expect(response.error).toMatch(
      /^decisions exceeds the request token budget: the decision has \d+ prompt tokens, at most 1024/,
    );
  });
});

describe("scoring response", () => {
  it("returns every result field for a single decision", async () => {
    const response = await postJson(adapter.url, { decision: decision({ answer: "yes" }) });
    expect(response.status).toBe(200);
    const { result, timing } = response.body as { result: Record<string, unknown>; timing: Record<string, unknown> };
    expect(result.id).toBe("d1");
    expect(result.option_ids).toEqual(["yes", "no"]);
    const probabilities = result.probabilities as number[];
    expect(probabilities).toHaveLength(2);
    expect(probabilities.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
    expect(result.option_logits).toHaveLength(2);
    expect(result.answer_token_ids).toHaveLength(2);
    expect(result.allowed_token_mass).toBeGreaterThan(0);
    expect(result.allowed_token_mass).toBeLessThanOrEqual(1);
    expect(Number.isInteger(result.full_vocab_argmax_id)).toBe(true);
    expect(result.input_tokens).toBeGreaterThan(20);
    expect(result.prompt_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(result.prompt_version).toBe("decision-prompt-v2");
    expect(result.model).toMatchObject({ file: "tiny.gguf", backend: "cpu", threads: 1, chat_template: "gguf" });
    expect(timing).toMatchObject({ batch_size: 1, max_request_tokens: 8192, max_tokens_per_decision: 1024 });
  });

  it("treats JSON-object states with the same content as one shared state, in any key order", async () => {
    const state = { customer: { tier: "gold", days: 12 }, receipt: true };
    const reordered = { receipt: true, customer: { days: 12, tier: "gold" } };
    const response = await postJson(adapter.url, {
      decisions: [decision({ state }), decision({ id: "d2", state: reordered, question: "Escalate?" })],
    });
    expect(response.status).toBe(200);
    const body = response.body as { results: Array<{ id: string }>; timing: { batch_size: number } };
    expect(body.results.map((result) => result.id)).toEqual(["d1", "d2"]);
    expect(body.timing.batch_size).toBe(2);
  });

  it("writes one JSON log line per request with id, route, status and tokens", async () => {
    await postJson(adapter.url, { decision: decision() }, { "x-request-id": "log-check" });
    const line = adapter.logs.find((entry) => entry.request_id === "log-check");
    expect(line).toMatchObject({ route: "decision", status: 200, path: "/invocations" });
    expect(line?.input_tokens).toBeGreaterThan(0);
    expect(line?.timing).toBeDefined();
  });
});

describe("scoring failure", () => {
  it("answers 500 'scoring failed' without the cause, and logs the cause", async () => {
    const broken = await startTestAdapter(model.file, { SEMIF_MAX_TOKENS: "512" });
    try {
      await broken.engine.loaded.context.dispose();
      const response = await postJson(broken.url, { decision: decision() }, { "x-request-id": "broken" });
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ error: "scoring failed" });
      const line = broken.logs.find((entry) => entry.request_id === "broken");
      expect(String(line?.error)).toMatch(/dispose/i);
    } finally {
      await broken.close().catch(() => undefined);
    }
  });
});

import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatCompletionChunkSchema, chatCompletionSchema } from "../src/contract/chat.ts";
import {
  type GeneratedModel,
  generateModel,
  holdModel,
  rawRequest,
  sharedPath,
  startTestAdapter,
  type TestAdapter,
} from "./support/adapter-harness.ts";

/**
 * OpenAI chat completions through the official `openai` client (its own request building and SSE parsing), on
 * the generated GGUF (ChatML template from the file) and on the stories260K fixture (no template: fallback).
 */

const STORIES = sharedPath("fixtures/models/stories260K.gguf");
if (!STORIES) console.warn("skipping chat tests on stories260K: ../shared/fixtures/models/stories260K.gguf not found");

const messages = [
  { role: "system" as const, content: "You tell short stories." },
  { role: "user" as const, content: "Once upon a time" },
];

function sseEvents(text: string): string[] {
  return text
    .split("\n\n")
    .filter((block) => block.trim().length > 0)
    .map((block) => {
      expect(block.startsWith("data: ")).toBe(true);
      return block.slice("data: ".length);
    });
}

/**
 * Where in a reply a three-character stop string can be cut whose first match is unambiguous, from the middle
 * outwards. The generated model's weights are random per run, so its reply may hold byte tokens (an incomplete
 * UTF-8 character shows as U+FFFD and is dropped, not sent, when a stop string ends the reply after it) and its
 * first token's leading space is matched by stop strings but trimmed from the reply. Neither is what this test
 * is about, so the window is printable ASCII, starts with a non-space, and follows a printable ASCII character.
 */
function plainStopPosition(text: string): number | null {
  const plain = (from: number, to: number) => /^[\x21-\x7e][\x20-\x7e]*$/.test(text.slice(from, to));
  const middle = Math.floor(text.length / 2);
  for (let step = 0; step < text.length; step++) {
    for (const at of [middle + step, middle - step]) {
      if (at >= 1 && at + 3 <= text.length && plain(at, at + 3) && /[\x20-\x7e]/.test(text[at - 1]!)) return at;
    }
  }
  return null;
}

function chatSuite(name: string, modelFile: () => string | null) {
  describe.skipIf(modelFile() === null)(`chat completions on ${name}`, () => {
    let adapter: TestAdapter;
    let client: OpenAI;

    beforeAll(async () => {
      adapter = await startTestAdapter(modelFile()!, { ADAPTER_THREADS: "1" });
      client = new OpenAI({ baseURL: `${adapter.url}/v1`, apiKey: "not-used", maxRetries: 0 });
    });
    afterAll(async () => {
      await adapter?.close();
    });

    it("returns the assistant's message, finish reason and token usage", async () => {
      const completion = await client.chat.completions.create({ model: "any", messages, max_tokens: 12, seed: 1 });
      chatCompletionSchema.parse(completion);
      const choice = completion.choices[0]!;
      expect(choice.message.role).toBe("assistant");
      expect(typeof choice.message.content).toBe("string");
      expect(["stop", "length"]).toContain(choice.finish_reason);
      expect(completion.usage!.completion_tokens).toBeLessThanOrEqual(12);
      expect(completion.usage!.prompt_tokens).toBeGreaterThan(0);
      expect(completion.usage!.total_tokens).toBe(
        completion.usage!.prompt_tokens + completion.usage!.completion_tokens,
      );
      expect(completion.model).toBe(adapter.engine.metadata.name);
    });

    it("stops at max_tokens with finish_reason length", async () => {
      const completion = await client.chat.completions.create({
        model: "any",
        messages,
        max_tokens: 3,
        temperature: 0,
        stop: null,
      });
      // A model may end its turn within three tokens; then the reason is stop and fewer tokens were made.
      const choice = completion.choices[0]!;
      if (choice.finish_reason === "length") expect(completion.usage!.completion_tokens).toBe(3);
      else expect(completion.usage!.completion_tokens).toBeLessThan(3);
    });

    it("repeats the same text for the same seed", async () => {
      const ask = () =>
        client.chat.completions.create({ model: "any", messages, max_tokens: 16, temperature: 0.9, seed: 42 });
      const [first, second] = [await ask(), await ask()];
      expect(second.choices[0]!.message.content).toBe(first.choices[0]!.message.content);
    });

    it("streams the same text as server-sent events ending with [DONE]", async () => {
      const request = { model: "any", messages, max_tokens: 16, temperature: 0, seed: 5 };
      const whole = await client.chat.completions.create(request);
      const stream = await client.chat.completions.create({
        ...request,
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = "";
      let finish: string | null = null;
      let usage: OpenAI.CompletionUsage | null = null;
      for await (const chunk of stream) {
        chatCompletionChunkSchema.parse(chunk);
        text += chunk.choices[0]?.delta.content ?? "";
        finish = chunk.choices[0]?.finish_reason ?? finish;
        usage = chunk.usage ?? usage;
      }
      expect(text).toBe(whole.choices[0]!.message.content);
      expect(finish).toBe(whole.choices[0]!.finish_reason);
      expect(usage).toEqual(whole.usage);
    });

    it("streams through /invocations for a messages body with stream: true", async () => {
      const response = await rawRequest(adapter.url, {
        body: JSON.stringify({ messages, max_tokens: 4, stream: true }),
      });
      expect(response.status).toBe(200);
      expect(response.headers["content-type"]).toBe("text/event-stream");
      const events = sseEvents(response.text);
      expect(events.at(-1)).toBe("[DONE]");
      const chunks = events.slice(0, -1).map((data) => chatCompletionChunkSchema.parse(JSON.parse(data)));
      expect(chunks[0]!.choices[0]!.delta.role).toBe("assistant");
      expect(chunks.at(-1)!.choices[0]!.finish_reason).not.toBeNull();
    });

    it("answers a non-streaming messages body through /invocations", async () => {
      const response = await rawRequest(adapter.url, { body: JSON.stringify({ messages, max_tokens: 4 }) });
      expect(response.status).toBe(200);
      expect(chatCompletionSchema.parse(response.body).choices).toHaveLength(1);
    });

    it("honours stop strings: the text ends before the first stop string", async () => {
      const free = await client.chat.completions.create({ model: "any", messages, max_tokens: 24, temperature: 0 });
      const text = free.choices[0]!.message.content ?? "";
      const at = plainStopPosition(text);
      if (at === null) return expect(["stop", "length"]).toContain(free.choices[0]!.finish_reason);
      const stop = text.slice(at, at + 3);
      const stopped = await client.chat.completions.create({
        model: "any",
        messages,
        max_tokens: 24,
        temperature: 0,
        stop: [stop],
      });
      expect(stopped.choices[0]!.finish_reason).toBe("stop");
      expect(stopped.choices[0]!.message.content).toBe(text.slice(0, text.indexOf(stop)));
      expect(stopped.choices[0]!.message.content!.length).toBeGreaterThan(0);
    });

    it("refuses bad requests with 400 and a message naming the field", async () => {
      const cases: Array<[unknown, string]> = [
        [{ messages: [] }, "messages: must contain at least one message"],
        [{ messages: [{ role: "robot", content: "hi" }] }, "messages[0].role"],
        [{ messages, temperature: 3 }, "temperature"],
        [{ messages, stop: ["a", "b", "c", "d", "e"] }, "stop"],
        [{ messages, n: 2 }, "n: only n = 1 is supported"],
      ];
      for (const [body, message] of cases) {
        const response = await rawRequest(adapter.url, { path: "/v1/chat/completions", body: JSON.stringify(body) });
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect((response.body as { error: string }).error).toContain(message);
      }
      const reserved = adapter.engine.reservedTokens[0]!;
      const injected = await rawRequest(adapter.url, {
        path: "/v1/chat/completions",
        body: JSON.stringify({ messages: [{ role: "user", content: `hi ${reserved}` }] }),
      });
      expect(injected.status).toBe(400);
      expect((injected.body as { error: string }).error).toContain("reserved prompt control token");
    });

    it("refuses a conversation longer than the context with 400, never shifting it", async () => {
      const response = await rawRequest(adapter.url, {
        path: "/v1/chat/completions",
        body: JSON.stringify({ messages: [{ role: "user", content: "word ".repeat(5000) }] }),
      });
      expect(response.status).toBe(400);
      expect((response.body as { error: string }).error).toMatch(
        /^messages exceed the token budget: \d+ prompt tokens/,
      );
    });

    it("answers 503 retryable to a second request while one holds the model", async () => {
      const held = holdModel(adapter);
      const body = JSON.stringify({ messages, max_tokens: 2 });
      const first = rawRequest(adapter.url, { path: "/v1/chat/completions", body });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const second = await rawRequest(adapter.url, { path: "/v1/chat/completions", body });
      held.release();
      expect(second.status).toBe(503);
      expect(second.body).toEqual({ error: "model is busy; retry the request", retryable: true });
      expect((await first).status).toBe(200);
    });
  });
}

let tiny: GeneratedModel | null = null;
chatSuite("the generated GGUF (its ChatML template)", () => {
  tiny ??= generateModel("tiny");
  return tiny.file;
});
chatSuite("stories260K (fallback template)", () => STORIES);
afterAll(() => tiny?.cleanup());

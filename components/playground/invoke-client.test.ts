import { afterEach, describe, expect, it, vi } from "vitest";
import { invokeHeaders } from "@/contract/invoke/invoke-headers.ts";
import { ApiError } from "../api/api-error.ts";
import { deltasOf, describeInvokeError, invoke, streamChat } from "./invoke-client.ts";

/** The console's invoke answer: the container's bytes, its content type and the metadata headers. */
function containerAnswers(bytes: string, contentType: string) {
  const sent: unknown[] = [];
  vi.stubGlobal("fetch", async (_url: string, init: RequestInit) => {
    sent.push(JSON.parse(String(init.body)));
    const headers = invokeHeaders({ contentType, invokedVariant: "Blue", retries: 2, latencyMs: 41.5 });
    return new Response(bytes, { headers });
  });
  return sent;
}

afterEach(() => vi.unstubAllGlobals());

describe("playground invocation client", () => {
  it("reads the text of OpenAI-style chunks and ignores the end marker", () => {
    const block = [
      'data: {"choices":[{"delta":{"role":"assistant"}}]}',
      'data: {"choices":[{"delta":{"content":"Hel"}}]}',
      'data: {"choices":[{"delta":{"content":"lo"}}]}',
      "data: [DONE]",
    ].join("\n");
    expect(deltasOf(block)).toBe("Hello");
  });

  it("explains a busy endpoint with the retries the console made", () => {
    const error = new ApiError(503, "unavailable", "model is busy; retry the request", { retries: 5 });
    expect(describeInvokeError(error)).toMatch(/stayed busy after 5 retries \(HTTP 503\)/);
  });

  it("tells a rejected request from a failing container", () => {
    const rejected = new ApiError(400, "bad_request", "Option IDs must be unique", { originalStatusCode: 400 });
    const failed = new ApiError(502, "upstream", "scoring failed", { originalStatusCode: 500 });
    expect(describeInvokeError(rejected)).toBe(
      "The model container rejected the request (HTTP 400): Option IDs must be unique",
    );
    expect(describeInvokeError(failed)).toBe("The model container failed (ModelError, HTTP 500): scoring failed");
  });

  it("reads a plain answer as the container's body with the metadata from the headers", async () => {
    const sent = containerAnswers('{"result": {"id": "d"}}', "application/json");
    expect(await invoke("dc-a", { decision: {} })).toEqual({
      body: { result: { id: "d" } },
      contentType: "application/json",
      invokedVariant: "Blue",
      retries: 2,
      latencyMs: 41.5,
    });
    expect(sent).toEqual([{ body: { decision: {} }, stream: false }]);
  });

  it("keeps an answer that is not JSON as the container's text", async () => {
    containerAnswers("not json, as sent", "text/plain");
    expect((await invoke("dc-a", {})).body).toBe("not json, as sent");
  });

  it("reads a stream's metadata from the same headers", async () => {
    const sent = containerAnswers('data: {"choices":[{"delta":{"content":"Hi"}}]}\n\n', "text/event-stream");
    const texts: string[] = [];
    const metadata = await streamChat("dc-a", { messages: [] }, (text) => texts.push(text));
    expect(texts).toEqual(["Hi"]);
    expect(metadata).toEqual({ contentType: "text/event-stream", invokedVariant: "Blue", retries: 2, latencyMs: 41.5 });
    expect(sent).toEqual([{ body: { messages: [], stream: true }, stream: true }]);
  });
});

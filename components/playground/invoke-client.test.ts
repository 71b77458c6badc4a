import { describe, expect, it } from "vitest";
import { ApiError } from "../api/api-error.ts";
import { deltasOf, describeInvokeError } from "./invoke-client.ts";

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
});

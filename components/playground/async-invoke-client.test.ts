import { afterEach, describe, expect, it, vi } from "vitest";
import { apiUrl } from "../api/console-client.ts";
import { AsyncInvocationFailed, invokeAsyncAndWait } from "./async-invoke-client.ts";

const queued = {
  inferenceId: "6f7c1e3c-0000-4000-8000-000000000000",
  inputLocation: "s3://b/async/dc-a/in/x.json",
  outputLocation: "s3://b/async/dc-a/out/6f7c1e3c-0000-4000-8000-000000000000.out",
  failureLocation: "s3://b/async/dc-a/failed/6f7c1e3c-0000-4000-8000-000000000000-error.out",
};

function answers(...outcomes: unknown[]) {
  const calls: string[] = [];
  const replies = [queued, ...outcomes];
  vi.stubGlobal("fetch", async (path: string, init: RequestInit) => {
    calls.push(`${init.method} ${path}`);
    return new Response(JSON.stringify(replies.shift()), { status: 200 });
  });
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe("the playground's asynchronous invoke", () => {
  it("submits once, polls while pending and answers with the decision", async () => {
    const calls = answers({ status: "pending", body: null }, { status: "completed", body: { result: { id: "d" } } });
    const seen: string[] = [];
    const result = await invokeAsyncAndWait("dc-a", { decision: {} }, (p) => seen.push(p.inferenceId), { pollMs: 1 });
    expect(result.body).toEqual({ result: { id: "d" } });
    const outcome = apiUrl("asyncOutcome", { params: { name: "dc-a", inferenceId: queued.inferenceId } });
    expect(calls).toEqual([
      `POST ${apiUrl("invokeAsync", { params: { name: "dc-a" } })}`,
      `GET ${outcome}`,
      `GET ${outcome}`,
    ]);
    expect(seen).toHaveLength(2);
  });

  it("throws what SageMaker wrote to the failure location", async () => {
    answers({ status: "failed", body: { message: "options must contain 2-16 entries" }, ...queued });
    await expect(invokeAsyncAndWait("dc-a", {}, () => undefined, { pollMs: 1 })).rejects.toThrow(AsyncInvocationFailed);
  });
});

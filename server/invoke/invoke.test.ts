import {
  InvokeEndpointCommand,
  InvokeEndpointWithResponseStreamCommand,
  ModelError,
  SageMakerRuntimeClient,
} from "@aws-sdk/client-sagemaker-runtime";
import { mockClient } from "aws-sdk-client-mock";
import "aws-sdk-client-mock-vitest/extend";
import { beforeEach, describe, expect, it } from "vitest";
import { type BusyRetryPolicy, backoffDelayMs } from "./busy-retry.ts";
import { ContainerError } from "./container-error.ts";
import { invokeEndpoint, invokeEndpointStream } from "./invoke.ts";

const runtime = mockClient(SageMakerRuntimeClient);
const client = new SageMakerRuntimeClient({ region: "us-east-1" });
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

function modelError(status: number, body: unknown): ModelError {
  return new ModelError({
    $metadata: { httpStatusCode: 424, requestId: "req-9" },
    message: `Received server error (${status}) from primary`,
    OriginalStatusCode: status,
    OriginalMessage: typeof body === "string" ? body : JSON.stringify(body),
    LogStreamArn: "arn:aws:logs:us-east-1:1:log-group:/aws/sagemaker/Endpoints/demo",
  });
}

const busy = () => modelError(503, { error: "model is busy; retry the request", retryable: true });

function policy(overrides: Partial<BusyRetryPolicy> = {}) {
  const sleeps: number[] = [];
  const value: BusyRetryPolicy = {
    maxRetries: 4,
    baseDelayMs: 100,
    maxDelayMs: 300,
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...overrides,
  };
  return { value, sleeps };
}

const decision = { decision: { id: "d1", state: "s", question: "q", options: [{ id: "a" }, { id: "b" }] } };

describe("invoke", () => {
  beforeEach(() => runtime.reset());

  it("sends the body as JSON and returns the container's parsed answer", async () => {
    runtime.on(InvokeEndpointCommand).resolves({
      Body: encode({ results: [{ probabilities: { a: 0.7, b: 0.3 } }] }) as never,
      ContentType: "application/json",
      InvokedProductionVariant: "AllTraffic",
    });
    const result = await invokeEndpoint(client, "demo", decision, policy().value);
    expect(result).toMatchObject({
      body: { results: [{ probabilities: { a: 0.7, b: 0.3 } }] },
      invokedVariant: "AllTraffic",
      retries: 0,
    });
    expect(runtime).toHaveReceivedCommandExactlyOnceWith(InvokeEndpointCommand, {
      EndpointName: "demo",
      Body: JSON.stringify(decision),
      ContentType: "application/json",
      Accept: "application/json",
    });
  });

  it("retries the container's retryable 503 with capped exponential backoff and jitter, then succeeds", async () => {
    runtime
      .on(InvokeEndpointCommand)
      .rejectsOnce(busy())
      .rejectsOnce(busy())
      .rejectsOnce(busy())
      .resolves({ Body: encode({ ok: true }) as never, ContentType: "application/json" });
    const { value, sleeps } = policy();
    const result = await invokeEndpoint(client, "demo", decision, value);
    expect(result.retries).toBe(3);
    // ceilings 100, 200, 400 -> capped at 300; random 0.5 takes half of each
    expect(sleeps).toEqual([50, 100, 150]);
    expect(runtime).toHaveReceivedCommandTimes(InvokeEndpointCommand, 4);
  });

  it("surfaces 503 with the container's message and the retry count once the retries run out", async () => {
    runtime.on(InvokeEndpointCommand).rejects(busy());
    const { value, sleeps } = policy({ maxRetries: 2 });
    const error = await invokeEndpoint(client, "demo", decision, value).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContainerError);
    expect(error).toMatchObject({
      status: 503,
      code: "unavailable",
      message: "model is busy; retry the request",
      details: { originalStatusCode: 503, retries: 2 },
    });
    expect(sleeps).toHaveLength(2);
    expect(runtime).toHaveReceivedCommandTimes(InvokeEndpointCommand, 3);
  });

  it("says a container that took over SageMaker's 60 seconds timed out, as a 504, not a 502 from an unreachable one", async () => {
    // What AWS answers then (seen by users of every container; the real-time hosting guide gives the 1-minute limit).
    const timedOut = modelError(
      0,
      "Your invocation timed out while waiting for a response from container primary. Review the latency metrics " +
        "for each container in Amazon CloudWatch, resolve the issue, and try again.",
    );
    runtime.on(InvokeEndpointCommand).rejects(timedOut);
    const error = await invokeEndpoint(client, "demo", decision, policy().value).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 504, code: "upstream_timeout", details: { originalStatusCode: 0 } });
    expect((error as Error).message).toMatch(/^The endpoint did not answer within 60 seconds, SageMaker's limit/);
    expect(runtime).toHaveReceivedCommandTimes(InvokeEndpointCommand, 1);
  });

  it("does not retry a 503 the container did not mark retryable", async () => {
    runtime.on(InvokeEndpointCommand).rejects(modelError(503, "upstream overloaded"));
    const { value, sleeps } = policy();
    await expect(invokeEndpoint(client, "demo", decision, value)).rejects.toMatchObject({ status: 503 });
    expect(sleeps).toEqual([]);
    expect(runtime).toHaveReceivedCommandTimes(InvokeEndpointCommand, 1);
  });

  it("passes a container 400 through with its original status and SemIf message, without retrying", async () => {
    runtime.on(InvokeEndpointCommand).rejects(modelError(400, { error: "Option IDs must be unique" }));
    const { value, sleeps } = policy();
    await expect(invokeEndpoint(client, "demo", decision, value)).rejects.toMatchObject({
      status: 400,
      message: "Option IDs must be unique",
      details: { originalStatusCode: 400, containerBody: { error: "Option IDs must be unique" } },
    });
    expect(sleeps).toEqual([]);
  });

  it("reads the message of a systemone refusal (TypeSafe's detail) and of an OpenAI decisions refusal", async () => {
    const refusals: Array<[number, unknown, string]> = [
      [
        422,
        { detail: [{ loc: ["body", "questions", "q", "criteria"], msg: "must hold 2-255 choices", type: "custom" }] },
        "questions.q.criteria: must hold 2-255 choices",
      ],
      [
        400,
        { detail: { error_type: "max_tokens_exceeded", message: "questions.q: the prompt needs 5000 tokens" } },
        "questions.q: the prompt needs 5000 tokens",
      ],
      [
        400,
        { error: { message: "this model reads text only", type: "invalid_request_error", param: null, code: "x" } },
        "this model reads text only",
      ],
    ];
    for (const [status, body, message] of refusals) {
      runtime.on(InvokeEndpointCommand).rejects(modelError(status, body));
      await expect(invokeEndpoint(client, "demo", decision, policy().value)).rejects.toMatchObject({ status, message });
    }
  });

  it("passes a container 500 through as 500 with its message", async () => {
    runtime.on(InvokeEndpointCommand).rejects(modelError(500, { error: "scoring failed" }));
    await expect(invokeEndpoint(client, "demo", decision, policy().value)).rejects.toMatchObject({
      status: 500,
      message: "scoring failed",
    });
  });

  it("maps a SageMaker error that is not a ModelError by its name", async () => {
    runtime
      .on(InvokeEndpointCommand)
      .rejects(Object.assign(new Error("Endpoint demo of account 1 not found."), { name: "ValidationError" }));
    await expect(invokeEndpoint(client, "demo", decision, policy().value)).rejects.toMatchObject({ status: 404 });
  });

  it("streams the payload parts in order after retrying a busy start", async () => {
    async function* parts() {
      yield { PayloadPart: { Bytes: new TextEncoder().encode('data: {"a":1}\n\n') } };
      yield { PayloadPart: { Bytes: new TextEncoder().encode("data: [DONE]\n\n") } };
    }
    runtime
      .on(InvokeEndpointWithResponseStreamCommand)
      .rejectsOnce(busy())
      .resolves({ Body: parts() as never, ContentType: "text/event-stream" });
    const { value } = policy();
    const opened = await invokeEndpointStream(client, "demo", { messages: [], stream: true }, value);
    expect(opened.retries).toBe(1);
    expect(await new Response(opened.stream).text()).toBe('data: {"a":1}\n\ndata: [DONE]\n\n');
  });

  it("ends a stream that fails midway with an SSE error event", async () => {
    async function* parts() {
      yield { PayloadPart: { Bytes: new TextEncoder().encode("data: {}\n\n") } };
      yield { ModelStreamError: { name: "ModelStreamError", message: "container crashed" } };
    }
    runtime.on(InvokeEndpointWithResponseStreamCommand).resolves({ Body: parts() as never });
    const opened = await invokeEndpointStream(client, "demo", { messages: [], stream: true }, policy().value);
    expect(await new Response(opened.stream).text()).toBe(
      'data: {}\n\nevent: error\ndata: {"error":"container crashed"}\n\n',
    );
  });
});

describe("backoff", () => {
  const fixed = (random: number) => ({ baseDelayMs: 100, maxDelayMs: 2000, random: () => random });

  it("doubles the ceiling each retry up to the cap", () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((retry) => backoffDelayMs(retry, fixed(0.999999)))).toEqual([
      99, 199, 399, 799, 1599, 1999, 1999,
    ]);
  });

  it("draws the wait uniformly below the ceiling (full jitter)", () => {
    expect(backoffDelayMs(3, fixed(0))).toBe(0);
    expect(backoffDelayMs(3, fixed(0.25))).toBe(200);
  });
});

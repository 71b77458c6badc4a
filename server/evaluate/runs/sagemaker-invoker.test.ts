import { S3Client } from "@aws-sdk/client-s3";
import { DescribeEndpointCommand, DescribeEndpointConfigCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import { InvokeEndpointCommand, ModelError, SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import { mockClient } from "aws-sdk-client-mock";
import { afterEach, describe, expect, it } from "vitest";
import { isEvaluationTraffic } from "../../../contract/evaluate/evaluation-traffic.ts";
import { isBusyAnswer } from "../../invoke/busy-retry.ts";
import { sageMakerInvoker } from "./sagemaker-invoker.ts";

const runtime = mockClient(SageMakerRuntimeClient);
const sageMaker = mockClient(SageMakerClient);
const clients = {
  runtime: new SageMakerRuntimeClient({ region: "us-east-1" }),
  sageMaker: new SageMakerClient({ region: "us-east-1" }),
  s3: new S3Client({ region: "us-east-1" }),
};
const busyBody = { error: "model is busy; retry the request", retryable: true };
const item = { item: { runId: "run-1", slot: 0, position: 0, itemId: "i0" } };

function containerAnswered(status: number, body: unknown) {
  return new ModelError({
    $metadata: { httpStatusCode: 424 },
    message: `Received server error (${status}) from primary`,
    OriginalStatusCode: status,
    OriginalMessage: JSON.stringify(body),
  });
}

function invoker() {
  sageMaker.on(DescribeEndpointCommand).resolves({ EndpointName: "demo", EndpointConfigName: "demo-config" } as never);
  sageMaker.on(DescribeEndpointConfigCommand).resolves({ EndpointConfigName: "demo-config" } as never);
  return sageMakerInvoker(clients, { artifactBucket: null, store: () => undefined as never });
}

describe("the evaluation runner's SageMaker invoker", () => {
  afterEach(() => {
    runtime.reset();
    sageMaker.reset();
  });

  it("passes the container's busy answer on as the busy-retry policy reads it, so the runner retries it", async () => {
    runtime.on(InvokeEndpointCommand).rejects(containerAnswered(503, busyBody));
    const outcome = await invoker()("demo", { decision: {} }, item);
    expect(outcome.status).toBe(503);
    expect(outcome.body).toEqual(busyBody);
    expect(isBusyAnswer(outcome.status, outcome.body)).toBe(true);
  });

  it("keeps a 503 without retryable final", async () => {
    runtime.on(InvokeEndpointCommand).rejects(containerAnswered(503, { error: "overloaded" }));
    const outcome = await invoker()("demo", { decision: {} }, item);
    expect(isBusyAnswer(outcome.status, outcome.body)).toBe(false);
    expect(outcome.body).toEqual({ error: "overloaded" });
  });

  it("tags each request as evaluation traffic by its InferenceId, one per run item, so capture records say so", async () => {
    runtime.on(InvokeEndpointCommand).resolves({ Body: new TextEncoder().encode("{}") as never });
    await invoker()("demo", { decision: {} }, { item: { runId: "run-1", slot: 2, position: 7, itemId: "i7" } });
    const sent = runtime.commandCalls(InvokeEndpointCommand)[0]?.args[0].input.InferenceId;
    expect(isEvaluationTraffic(sent)).toBe(true);
    expect(sent).toBe("dc-eval-run-1-2-7");
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DescribeEndpointCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import { InvokeEndpointCommand, SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import { mockClient } from "aws-sdk-client-mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The route reads its database from the environment, as in local mode; SageMaker and its runtime are doubles.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "invoke-route-"));
const saved = { ...process.env };
const ENDPOINT = "dc-playground";

const runtime = mockClient(SageMakerRuntimeClient);
runtime.on(InvokeEndpointCommand).resolves({
  Body: new TextEncoder().encode(JSON.stringify({ result: { id: "d" } })),
  ContentType: "application/json",
} as never);
mockClient(SageMakerClient)
  .on(DescribeEndpointCommand)
  .resolves({ EndpointName: ENDPOINT } as never);

let invoke: typeof import("./route.ts");

beforeAll(async () => {
  Object.assign(process.env, {
    CONSOLE_DATA_DIR: dataDir,
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "AKIDEXAMPLELOCAL",
    AWS_SECRET_ACCESS_KEY: "local-secret",
  });
  invoke = await import("./route.ts");
});

afterAll(() => {
  process.env = saved;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the playground's invoke", () => {
  it("gives each call a fresh InferenceId and names it in the answer's x-inference-id", async () => {
    const call = () =>
      invoke.POST(
        new Request(`http://127.0.0.1:3000/api/endpoints/${ENDPOINT}/invoke`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ body: { decision: { id: "d" } } }),
        }),
        { params: Promise.resolve({ name: ENDPOINT }) },
      );
    const answers = [await call(), await call()];
    const sent = runtime.commandCalls(InvokeEndpointCommand).map((c) => c.args[0].input.InferenceId);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(answers.map((answer) => answer.headers.get("x-inference-id"))).toEqual(sent);
    expect(sent[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(sent[1]).not.toBe(sent[0]);
  });
});

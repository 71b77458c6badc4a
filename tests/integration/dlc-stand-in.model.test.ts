import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { DescribeEndpointCommand, DescribeModelCommand } from "@aws-sdk/client-sagemaker";
import { type ControlPlane, DEFAULT_REGION, localClientConfig, startControlPlane } from "@decision-console/local-aws";
import { testExecutionRoleArn, testStackFixture, writeTinyModel } from "@decision-console/local-aws/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deployRequestSchema } from "../../contract/endpoints/deploy.ts";
import { endpointLogsQuerySchema } from "../../contract/endpoints/logs.ts";
import { LLAMA_CPP_DLC_ACCOUNTS } from "../../contract/stack/llama-cpp-dlc.ts";
import { consoleClientsFor } from "../../server/aws/local-console-clients.ts";
import { deployEndpoint } from "../../server/endpoints/deploy.ts";
import { listDeployableImages } from "../../server/images/images.ts";
import { invokeEndpoint } from "../../server/invoke/invoke.ts";
import { endpointLogs } from "../../server/logs/endpoint-logs.ts";

const LOCAL_ARTIFACT_BUCKET = testStackFixture().bucket;

/**
 * The llama.cpp DLC path in local mode, with the console's own functions signing as the console: the DLC images
 * are listed from the DLC's regional registry by digest, deployed, and answer OpenAI chat completions at
 * /invocations from the model (the adapter's chat API standing in for llama-server).
 */
let dataDir: string;
let plane: ControlPlane;

function consoleClients() {
  return consoleClientsFor(plane);
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dlc-stand-in-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0 });
  const gguf = path.join(dataDir, "tiny.gguf");
  writeTinyModel(gguf);
  const s3 = new S3Client({ ...localClientConfig(plane, "admin"), forcePathStyle: true });
  await s3.send(
    new PutObjectCommand({
      Bucket: LOCAL_ARTIFACT_BUCKET,
      Key: "models/tiny/none/tiny.gguf",
      Body: fs.readFileSync(gguf),
    }),
  );
});

afterAll(async () => {
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the llama.cpp DLC in local mode", { timeout: 120_000 }, () => {
  const dlcRegistry = `${LLAMA_CPP_DLC_ACCOUNTS[DEFAULT_REGION]}.dkr.ecr.${DEFAULT_REGION}.amazonaws.com/llama-cpp`;
  const options = { defaultExecutionRoleArn: testExecutionRoleArn(), resourceNamePrefix: "dc-" };
  const deployOf = (imageUri: string) =>
    deployRequestSchema.parse({
      name: "dc-dlc-chat",
      apiMode: "chat",
      imageUri,
      modelDataUrl: `s3://${LOCAL_ARTIFACT_BUCKET}/models/tiny/none/`,
      compression: "None",
      compute: { kind: "cpu", instanceType: "ml.c6i.2xlarge", threads: 1 },
      limits: { maxTokens: 256 },
    });

  it("offers both SageMaker images from the DLC's regional registry, resolved to a digest, as chat images", async () => {
    const { ecr } = consoleClients();
    const list = await listDeployableImages(ecr, "decision-adapter");
    const dlc = list.images.filter((image) => image.source === "dlc");
    expect(dlc.map((image) => [image.variant, image.tags, image.apiMode])).toEqual([
      ["cpu", ["server-sagemaker-cpu-v1"], "chat"],
      ["cuda", ["server-sagemaker-cuda-v1"], "chat"],
    ]);
    for (const image of dlc) expect(image.imageUri).toMatch(new RegExp(`^${dlcRegistry}@sha256:[0-9a-f]{64}$`));
    expect(list.unresolved).toEqual([]);
  });

  it("refuses the public.ecr.aws reference before creating anything, naming the regional repository", async () => {
    const { sageMaker } = consoleClients();
    const publicUri = `public.ecr.aws/deep-learning-containers/llama-cpp@sha256:${"a".repeat(64)}`;
    const refused = deployEndpoint(sageMaker, deployOf(publicUri), options);
    await expect(refused).rejects.toMatchObject({ status: 400, message: expect.stringContaining(dlcRegistry) });
    await expect(sageMaker.send(new DescribeModelCommand({ ModelName: "dc-dlc-chat" }))).rejects.toMatchObject({
      name: "ValidationException",
    });
  });

  it("deploys the cpu image and answers an OpenAI chat completion at /invocations from the model", async () => {
    const { ecr, sageMaker, runtime } = consoleClients();
    const cpu = (await listDeployableImages(ecr, "decision-adapter")).images.find(
      (image) => image.source === "dlc" && image.variant === "cpu",
    );
    await deployEndpoint(sageMaker, deployOf(cpu!.imageUri), options);
    await plane.endpoints.settled("dc-dlc-chat");
    const endpoint = await sageMaker.send(new DescribeEndpointCommand({ EndpointName: "dc-dlc-chat" }));
    expect(endpoint.FailureReason).toBeUndefined();
    expect(endpoint.EndpointStatus).toBe("InService");

    const chat = { messages: [{ role: "user", content: "Once upon a time" }], max_tokens: 8, temperature: 0 };
    const result = await invokeEndpoint(runtime, "dc-dlc-chat", chat);
    const body = result.body as { object: string; choices: { message: { role: string; content: string } }[] };
    expect(body.object).toBe("chat.completion");
    expect(body.choices[0]?.message.role).toBe("assistant");
    expect(body.choices[0]?.message.content.length).toBeGreaterThan(0);
    // The same prompt at temperature 0 is answered the same: the model's greedy continuation, not canned text.
    expect((await invokeEndpoint(runtime, "dc-dlc-chat", chat)).body).toMatchObject({
      choices: [{ message: { content: body.choices[0]?.message.content } }],
    });

    // A decision body is not llama-server's API: its 400, as the DLC would answer.
    await expect(invokeEndpoint(runtime, "dc-dlc-chat", { decision: {} })).rejects.toMatchObject({ status: 400 });

    // The stand-in's own output lands in the endpoint's log group, as the container's stdout does on AWS, and the
    // console's log viewer finds it there with its own credentials.
    const view = await endpointLogs(
      consoleClients().logs,
      "dc-dlc-chat",
      endpointLogsQuerySchema.parse({ filterPattern: '"llama-server stand-in"' }),
    );
    expect(view.events.length).toBe(1);
    expect(view.events[0]?.stream).toMatch(/^AllTraffic\//);
    expect(JSON.parse(view.events[0]?.message ?? "{}")).toMatchObject({ variant: "cpu", model: "tiny.gguf" });
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ControlPlane, startControlPlane } from "./control-plane.ts";
import type { AccessKey } from "./local-credentials.ts";
import { localAdapterImageUri } from "./test-support/adapter-image.ts";
import { jsonErrorCode, type RawAnswer, sendJson, sendRaw } from "./test-support/signed-request.ts";
import { testExecutionRoleArn, testStackFixture } from "./test-support/stack-fixture.ts";
import { LOCAL_ACCOUNT_ID } from "./wire/request.ts";

/**
 * What the console's own policy lets it do in local mode, asked over the wire as the `console` profile: another
 * team's model stays out of its endpoint configurations and transform jobs (security issue 25, item 5), and an
 * operation local mode does not serve is authorised before it is called unserved (AWS truth issue 26, item 9).
 */
let dataDir: string;
let plane: ControlPlane;
let admin: AccessKey;
let consoleKey: AccessKey;
const consoleArn = `arn:aws:iam::${LOCAL_ACCOUNT_ID}:user/decision-console`;
const forbidden = { sent: 0, refused: 0 };

async function attempt(answer: Promise<RawAnswer>): Promise<RawAnswer> {
  const result = await answer;
  forbidden.sent += 1;
  if (result.status >= 400 && result.status < 500) forbidden.refused += 1;
  return result;
}

const sageMaker = (key: AccessKey, operation: string, input: unknown) =>
  sendJson(plane, `SageMaker.${operation}`, input, { key, service: "sagemaker" });

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-console-authorization-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0, waitForEndpoints: false });
  admin = plane.credentials.keys.admin;
  consoleKey = plane.credentials.keys.console;
  for (const [key, name] of [
    [admin, "team-b-prod"],
    [consoleKey, "dc-own"],
  ] as const) {
    const created = await sageMaker(key, "CreateModel", {
      ModelName: name,
      ExecutionRoleArn: testExecutionRoleArn(),
      EnableNetworkIsolation: true,
      PrimaryContainer: { Image: localAdapterImageUri(plane) },
    });
    expect(created.status).toBe(200);
  }
});

afterAll(async () => {
  console.log(`console authorization: ${forbidden.refused} of ${forbidden.sent} forbidden requests refused`);
  expect(plane.traffic.failed).toBe(0);
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const variant = (name: string, model: string) => ({
  VariantName: name,
  ModelName: model,
  InstanceType: "ml.c6i.large",
  InitialInstanceCount: 1,
});

describe("a console deployment holds its endpoint configurations and transform jobs to its own models", () => {
  it("CreateEndpointConfig naming another team's model is AccessDenied, alone or beside its own", async () => {
    for (const [name, variants] of [
      ["dc-steal", [variant("AllTraffic", "team-b-prod")]],
      ["dc-mixed", [variant("Own", "dc-own"), variant("Stolen", "team-b-prod")]],
    ] as const) {
      const answer = await attempt(
        sageMaker(consoleKey, "CreateEndpointConfig", { EndpointConfigName: name, ProductionVariants: variants }),
      );
      expect([answer.status, jsonErrorCode(answer)]).toEqual([400, "AccessDeniedException"]);
      expect(JSON.parse(answer.text).message).toBe(
        `User: ${consoleArn} is not authorized to perform: sagemaker:CreateEndpointConfig on resource: arn:aws:sagemaker:us-east-1:${LOCAL_ACCOUNT_ID}:endpoint-config/${name} because no identity-based policy allows the sagemaker:CreateEndpointConfig action`,
      );
      const described = await sageMaker(admin, "DescribeEndpointConfig", { EndpointConfigName: name });
      expect(jsonErrorCode(described)).toBe("ValidationException");
    }
    const endpoint = await attempt(
      sageMaker(consoleKey, "CreateEndpoint", { EndpointName: "dc-steal", EndpointConfigName: "dc-steal" }),
    );
    expect(jsonErrorCode(endpoint)).toBe("ValidationException");
  });

  it("CreateEndpointConfig of its own model is allowed", async () => {
    const answer = await sageMaker(consoleKey, "CreateEndpointConfig", {
      EndpointConfigName: "dc-own",
      ProductionVariants: [variant("AllTraffic", "dc-own")],
    });
    expect(answer.status).toBe(200);
  });

  it("CreateTransformJob of another team's model is AccessDenied and starts nothing", async () => {
    const answer = await attempt(
      sageMaker(consoleKey, "CreateTransformJob", {
        TransformJobName: "dc-steal",
        ModelName: "team-b-prod",
        TransformInput: {
          DataSource: { S3DataSource: { S3DataType: "S3Prefix", S3Uri: "s3://decision-console-local/batch/in/" } },
        },
        TransformOutput: { S3OutputPath: "s3://decision-console-local/batch/out/" },
        TransformResources: { InstanceType: "ml.c6i.large", InstanceCount: 1 },
      }),
    );
    expect([answer.status, jsonErrorCode(answer)]).toEqual([400, "AccessDeniedException"]);
    expect(JSON.parse(answer.text).message).toContain("sagemaker:CreateTransformJob on resource:");
    const described = await sageMaker(admin, "DescribeTransformJob", { TransformJobName: "dc-steal" });
    expect(jsonErrorCode(described)).toBe("ResourceNotFound");
  });
});

describe("an operation local mode does not serve", () => {
  it("is AccessDenied to a caller whose policy cannot allow it, and unserved to one whose policy may", async () => {
    const listModels = await attempt(sageMaker(consoleKey, "ListModels", {}));
    expect([listModels.status, jsonErrorCode(listModels)]).toEqual([400, "AccessDeniedException"]);
    expect(JSON.parse(listModels.text).message).toBe(
      `User: ${consoleArn} is not authorized to perform: sagemaker:ListModels on resource: * because no identity-based policy allows the sagemaker:ListModels action`,
    );
    const asAdmin = await sageMaker(admin, "ListModels", {});
    expect([asAdmin.status, jsonErrorCode(asAdmin)]).toEqual([400, "UnknownOperationException"]);
    expect(JSON.parse(asAdmin.text).message).toBe("SageMaker.ListModels is not served by local mode.");

    const build = plane.credentials.issueBuildKey("decision-console-model-package", "decision-console-model-package:1");
    const putLogs = (key: AccessKey) =>
      sendJson(
        plane,
        "Logs_20140328.PutLogEvents",
        { logGroupName: "/aws/codebuild/decision-console-model-package", logStreamName: "1", logEvents: [] },
        { key, service: "logs" },
      );
    const byBuild = await putLogs(build);
    expect([byBuild.status, jsonErrorCode(byBuild)]).toEqual([400, "UnknownOperationException"]);
    const byConsole = await attempt(putLogs(consoleKey));
    expect(jsonErrorCode(byConsole)).toBe("AccessDeniedException");
    expect(JSON.parse(byConsole.text).message).toContain("logs:PutLogEvents");
  });

  it("is never an object's inherited member: SageMaker.constructor is refused, not run", async () => {
    const byConsole = await attempt(sageMaker(consoleKey, "constructor", {}));
    expect([byConsole.status, jsonErrorCode(byConsole)]).toEqual([400, "AccessDeniedException"]);
    const byAdmin = await attempt(sageMaker(admin, "constructor", { ModelName: "x" }));
    expect([byAdmin.status, jsonErrorCode(byAdmin)]).toEqual([400, "UnknownOperationException"]);
  });

  it("of a service local mode does not have is authenticated first", async () => {
    const request = {
      method: "POST",
      path: "/",
      headers: { "content-type": "application/x-amz-json-1.0", "x-amz-target": "DynamoDB_20120810.ListTables" },
      body: "{}",
    };
    const unsigned = await attempt(sendRaw(plane, request));
    expect([unsigned.status, jsonErrorCode(unsigned)]).toEqual([403, "MissingAuthenticationTokenException"]);
    const signed = await sendJson(plane, "DynamoDB_20120810.ListTables", {}, { key: admin, service: "dynamodb" });
    expect([signed.status, jsonErrorCode(signed)]).toEqual([400, "UnknownOperationException"]);
    expect(JSON.parse(signed.text).message).toBe("DynamoDB_20120810.ListTables is not served by local mode.");
  });
});

describe("a request whose values are of the wrong type", () => {
  it("is a SerializationException before it is authorised, never a failure of the rules that read it", async () => {
    // Found by the security probe: the authorisation rule iterated InstancePools, which was a number.
    for (const ProductionVariants of [[{ VariantName: "v", InstancePools: -1 }], [7], "all"]) {
      const answer = await attempt(
        sageMaker(consoleKey, "CreateEndpointConfig", { EndpointConfigName: "dc-typed", ProductionVariants }),
      );
      expect([answer.status, jsonErrorCode(answer)]).toEqual([400, "SerializationException"]);
    }
  });
});

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CreateEndpointCommand, ListEndpointsCommand } from "@aws-sdk/client-sagemaker";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createAwsClients, destroyAwsClients } from "../../server/aws/clients.ts";
import { REQUEST_CAPTURE_VARIABLE } from "../../server/aws/request-capture.ts";

const root = path.resolve(import.meta.dirname, "../..");
const python = path.join(root, ".venv-tests/bin/python");
const validator = path.join(root, "tests/aws-models/validate_requests.py");
const required = process.env.PYTHON_TESTS === "required";
const available = fs.existsSync(python);
if (!available) {
  const reason = fs.existsSync(path.join(root, ".venv-tests/SKIPPED"))
    ? fs.readFileSync(path.join(root, ".venv-tests/SKIPPED"), "utf8").trim()
    : "no .venv-tests (npm run py:env creates it)";
  console.warn(`aws-models validator tests: skipped: ${reason}`);
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "validate-requests-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

function validate(...requests: unknown[]): { status: number | null; output: string } {
  const file = path.join(scratch, `${requests.length}-${Math.random().toString(36).slice(2)}.jsonl`);
  fs.writeFileSync(file, requests.map((request) => `${JSON.stringify(request)}\n`).join(""));
  const result = spawnSync(python, [validator, file], { encoding: "utf8", timeout: 60_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe.skipIf(!available && !required)("validation of captured requests against botocore's models", () => {
  it("passes requests the SageMaker model allows, dates and bytes included", () => {
    const { status, output } = validate(
      { service: "SageMaker", operation: "ListEndpoints", input: { MaxResults: 10, SortBy: "CreationTime" } },
      {
        service: "SageMaker",
        operation: "ListEndpoints",
        input: { CreationTimeAfter: { $date: "2026-01-01T00:00:00.000Z" } },
      },
      { service: "S3", operation: "PutObject", input: { Bucket: "b", Key: "k", Body: { $bytes: 3 } } },
      {
        service: "SageMaker Runtime",
        operation: "InvokeEndpoint",
        input: { EndpointName: "e", Body: { $stream: true } },
      },
    );
    expect(output).toContain("validated 4 requests, 3 distinct operations");
    expect(output).toContain("0 violations");
    expect(status).toBe(0);
  });

  it("fails each malformed request, naming its line, operation and member", () => {
    const malformed: [string, unknown, string][] = [
      ["SageMaker", { EndpointName: "e" }, 'Missing required parameter in input: "EndpointConfigName"'],
      [
        "SageMaker",
        { EndpointName: "e", EndpointConfigName: "c", Colour: "red" },
        'Unknown parameter in input: "Colour"',
      ],
      ["SageMaker", { EndpointName: 7, EndpointConfigName: "c" }, "Invalid type for parameter EndpointName"],
      ["SageMaker", { EndpointName: "e".repeat(64), EndpointConfigName: "c" }, "length 64, more than the maximum 63"],
      [
        "SageMaker",
        { EndpointName: "bad_name", EndpointConfigName: "c" },
        "'bad_name' does not match the model's pattern",
      ],
      [
        "SageMaker",
        { EndpointName: { $date: "2026-01-01T00:00:00Z" }, EndpointConfigName: "c" },
        "Invalid type for parameter EndpointName",
      ],
    ];
    const runtime: [string, unknown, string][] = [
      ["InvokeEndpoint", { EndpointName: "e", Body: { $bytes: 2 }, InferenceId: " lead" }, "does not match"],
      ["InvokeEndpoint", { EndpointName: "e", Body: { $bytes: 2 }, ContentType: "text/é" }, "does not match"],
    ];
    const { status, output } = validate(
      ...malformed.map(([, input]) => ({ service: "SageMaker", operation: "CreateEndpoint", input })),
      { service: "SageMaker", operation: "ListEndpoints", input: { SortBy: "Colour" } },
      { service: "SageMaker", operation: "ListEverything", input: {} },
      {
        service: "SageMaker",
        operation: "CreateModel",
        input: { ModelName: "m", Tags: [{ Key: "team!", Value: "ok" }] },
      },
      ...runtime.map(([operation, input]) => ({ service: "SageMaker Runtime", operation, input })),
    );
    const violations = output.split("VIOLATION ").slice(1);
    malformed.forEach(([, , expected], index) => {
      const atLine = violations.filter((v) => v.includes(`.jsonl:${index + 1}: SageMaker CreateEndpoint`));
      expect(atLine.join("")).toContain(expected);
    });
    expect(violations.find((v) => v.includes(".jsonl:7: "))).toContain("'Colour' is not one of the model's values");
    expect(violations.find((v) => v.includes(".jsonl:8: "))).toContain("ListEverything");
    // Patterns in Java syntax: \p{L} (tag keys), \p{Print} (inference ids), \p{ASCII} (content types).
    expect(violations.find((v) => v.includes(".jsonl:9: "))).toContain("Tags[0].Key: 'team!' does not match");
    expect(violations.find((v) => v.includes(".jsonl:10: "))).toContain("InferenceId: ' lead' does not match");
    expect(violations.find((v) => v.includes(".jsonl:11: "))).toContain("ContentType: 'text/é' does not match");
    expect(output).not.toContain("pattern not checked");
    expect(output).toContain(`aws-models: ${violations.length} violations`);
    expect(status).toBe(1);
  });

  it("finds a malformed request the console's own clients captured", async () => {
    const folder = path.join(scratch, "captured");
    vi.stubEnv(REQUEST_CAPTURE_VARIABLE, folder);
    vi.stubEnv("AWS_ACCESS_KEY_ID", "test");
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", "test");
    const clients = createAwsClients({ region: "us-east-1" });
    clients.sageMaker.middlewareStack.add(
      () => async () => {
        throw new Error("not sent");
      },
      { step: "finalizeRequest" },
    );
    await expect(clients.sageMaker.send(new ListEndpointsCommand({}))).rejects.toThrow("not sent");
    const malformed = { EndpointName: "e" } as unknown as ConstructorParameters<typeof CreateEndpointCommand>[0];
    await expect(clients.sageMaker.send(new CreateEndpointCommand(malformed))).rejects.toThrow("not sent");
    destroyAwsClients(clients);
    vi.unstubAllEnvs();
    const result = spawnSync(python, [validator, folder], { encoding: "utf8", timeout: 60_000 });
    expect(result.stdout).toContain("validated 2 requests, 2 distinct operations");
    expect(result.stdout).toContain(
      'SageMaker CreateEndpoint:\n  Missing required parameter in input: "EndpointConfigName"',
    );
    expect(result.status).toBe(1);
  });

  it("refuses to pass when nothing was captured", () => {
    const { status, output } = validate();
    expect(output).toContain("no captured requests");
    expect(status).toBe(2);
  });
});

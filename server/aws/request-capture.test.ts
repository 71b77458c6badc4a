import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { ListEndpointsCommand } from "@aws-sdk/client-sagemaker";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAwsClients, destroyAwsClients } from "./clients.ts";
import { capturedValue, REQUEST_CAPTURE_VARIABLE } from "./request-capture.ts";

/** Stops every command right before it would leave the process. */
function stopBeforeSending(client: { middlewareStack: { add: (...args: never[]) => void } }): void {
  const add = client.middlewareStack.add as unknown as (mw: () => () => Promise<never>, o: { step: string }) => void;
  add(
    () => async () => {
      throw new Error("not sent");
    },
    { step: "finalizeRequest" },
  );
}

function capturedLines(folder: string): unknown[] {
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder)
    .flatMap((name) => fs.readFileSync(path.join(folder, name), "utf8").trim().split("\n"))
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

describe("request capture", () => {
  const folders: string[] = [];
  afterEach(() => {
    vi.unstubAllEnvs();
    for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
  });

  function captureFolder(): string {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "request-capture-"));
    folders.push(folder);
    return path.join(folder, "requests");
  }

  it("records each command the console's clients send, as the service model names it", async () => {
    const folder = captureFolder();
    vi.stubEnv(REQUEST_CAPTURE_VARIABLE, folder);
    vi.stubEnv("AWS_ACCESS_KEY_ID", "test");
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", "test");
    const clients = createAwsClients({ region: "us-east-1" });
    stopBeforeSending(clients.sageMaker);
    stopBeforeSending(clients.s3);
    await expect(clients.sageMaker.send(new ListEndpointsCommand({ MaxResults: 5 }))).rejects.toThrow("not sent");
    await expect(
      clients.s3.send(new PutObjectCommand({ Bucket: "b", Key: "k", Body: Buffer.from("abc") })),
    ).rejects.toThrow("not sent");
    destroyAwsClients(clients);
    expect(capturedLines(folder)).toEqual([
      { service: "SageMaker", operation: "ListEndpoints", input: { MaxResults: 5 } },
      { service: "S3", operation: "PutObject", input: { Bucket: "b", Key: "k", Body: { $bytes: 3 } } },
    ]);
  });

  it("adds nothing when the test harness has not switched it on", async () => {
    const folder = captureFolder();
    vi.stubEnv(REQUEST_CAPTURE_VARIABLE, "");
    vi.stubEnv("AWS_ACCESS_KEY_ID", "test");
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", "test");
    const clients = createAwsClients({ region: "us-east-1" });
    stopBeforeSending(clients.sageMaker);
    await expect(clients.sageMaker.send(new ListEndpointsCommand({}))).rejects.toThrow("not sent");
    destroyAwsClients(clients);
    expect(capturedLines(folder)).toEqual([]);
  });

  it("tags dates, bytes, streams and long strings so the validator can rebuild them", () => {
    expect(
      capturedValue({
        At: new Date("2026-01-02T03:04:05.000Z"),
        Bad: new Date(Number.NaN),
        Bytes: new Uint8Array(7),
        Stream: Readable.from(["x"]),
        Long: "x".repeat(70_000),
        Skipped: undefined,
        List: [1, "a"],
      }),
    ).toEqual({
      At: { $date: "2026-01-02T03:04:05.000Z" },
      Bad: { $date: "invalid" },
      Bytes: { $bytes: 7 },
      Stream: { $stream: true },
      Long: { $longString: 70_000 },
      List: [1, "a"],
    });
  });
});

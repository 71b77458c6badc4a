import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listDatasets, POST as uploadDataset } from "@/app/api/datasets/route.ts";
import { POST as invoke } from "@/app/api/endpoints/[name]/invoke/route.ts";
import { consoleOrigin, useTemporaryConsole } from "./support.ts";

/**
 * Issue 12, Low 11 and Low 13: JSON nested thousands deep gave 500 RangeError (an invoke body, a dataset row), and
 * a 25 MB dataset upload without a usable Content-Length answered "not valid JSON" once Next.js cut it short.
 */

let temp: ReturnType<typeof useTemporaryConsole>;
beforeAll(() => {
  temp = useTemporaryConsole();
  Object.assign(process.env, { AWS_REGION: "us-east-1", AWS_ACCESS_KEY_ID: "test", AWS_SECRET_ACCESS_KEY: "test" });
});
afterAll(() => temp.restore());

const nested = (depth: number) => `${"[".repeat(depth)}"leaf"${"]".repeat(depth)}`;

/** A body sent as a stream: no Content-Length, as a chunked upload arrives. */
function streamed(text: string, type: string): Request {
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += 1 << 20) controller.enqueue(bytes.subarray(at, at + (1 << 20)));
      controller.close();
    },
  });
  return new Request(`${consoleOrigin}/api/datasets`, {
    method: "POST",
    headers: { "content-type": type },
    body,
    duplex: "half",
  } as RequestInit);
}

async function errorOf(response: Response) {
  return { status: response.status, ...((await response.json()) as { error: { code: string; message: string } }) };
}

async function datasetCount(): Promise<number> {
  const list = await listDatasets(new Request(`${consoleOrigin}/api/datasets`));
  return ((await list.json()) as { datasets: unknown[] }).datasets.length;
}

describe("JSON nested 5,000 deep", () => {
  it("in a playground invoke body is a 400 before anything reaches the endpoint", async () => {
    const text = `{"body":{"decision":{"id":"d","state":${nested(5000)}}}}`;
    const response = await invoke(
      new Request(`${consoleOrigin}/api/endpoints/demo/invoke`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: text,
      }),
      { params: Promise.resolve({ name: "demo" }) },
    );
    expect(await errorOf(response)).toEqual({
      status: 400,
      error: { code: "bad_request", message: "The request body nests arrays and objects deeper than 128 levels." },
    });
  });

  it("in a dataset row is that line's error, and nothing is stored", async () => {
    const row = `{"id":"a","state":${nested(5000)},"question":"q","options":[{"id":"a","description":""},{"id":"b","description":""}],"answer":"a"}`;
    const before = await datasetCount();
    const response = await uploadDataset(
      new Request(`${consoleOrigin}/api/datasets`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "deep", text: row }),
      }),
    );
    const { status, error } = await errorOf(response);
    expect(status).toBe(400);
    expect(error.message).toBe("The JSONL file has problems: line 1: JSON nested deeper than 128 levels");
    expect(await datasetCount()).toBe(before);
  });
});

describe("a multipart dataset upload read within its limit", () => {
  it("keeps the boundary as sent (browsers use mixed case), so the form parses and the file is stored", async () => {
    const boundary = "----WebKitFormBoundaryAbCdEf0123";
    const csv = "id,state,question,options,answer\nr1,Late twice,Escalate?,no|yes,yes\n";
    const form = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="late.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
    const response = await uploadDataset(streamed(form, `multipart/form-data; boundary=${boundary}`));
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ name: "late", format: "csv", itemCount: 1 });
  });
});

describe("a 25 MB dataset upload", () => {
  const message = "The upload is larger than 20 MiB: split the dataset into smaller files.";
  const text = JSON.stringify({ name: "big", text: "x".repeat(25 * 1024 * 1024) });

  it("is a 413 that says so, with a Content-Length", async () => {
    const response = await uploadDataset(
      new Request(`${consoleOrigin}/api/datasets`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": String(text.length) },
        body: text,
      }),
    );
    expect(await errorOf(response)).toEqual({ status: 413, error: { code: "payload_too_large", message } });
  });

  it("is a 413 that says so when streamed without one, as JSON or as a multipart form", async () => {
    const before = await datasetCount();
    expect(await errorOf(await uploadDataset(streamed(text, "application/json")))).toMatchObject({
      status: 413,
      error: { message },
    });
    const boundary = "----upload";
    const form = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jsonl"\r\nContent-Type: application/jsonl\r\n\r\n${"x".repeat(25 * 1024 * 1024)}\r\n--${boundary}--\r\n`;
    expect(
      await errorOf(await uploadDataset(streamed(form, `multipart/form-data; boundary=${boundary}`))),
    ).toMatchObject({ status: 413, error: { message } });
    expect(await datasetCount()).toBe(before);
  }, 60_000);
});

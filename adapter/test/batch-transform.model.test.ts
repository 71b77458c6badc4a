import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordErrorLineSchema } from "../src/contract/record-errors.ts";
import { readConfig } from "../src/engine/config.ts";
import {
  decision,
  type GeneratedModel,
  generateModel,
  postJson,
  rawRequest,
  startTestAdapter,
  type TestAdapter,
} from "./support/adapter-harness.ts";

/**
 * What a SageMaker Batch Transform job sends the container: GET /execution-parameters, and with BatchStrategy
 * MultiRecord a JSON Lines body of several records (`application/jsonlines`), answered one line per record.
 */
let model: GeneratedModel;
let adapter: TestAdapter;

beforeAll(async () => {
  model = generateModel("tiny");
  adapter = await startTestAdapter(model.file, { ADAPTER_PARALLEL: "3", SEMIF_MAX_IN_FLIGHT: "2" });
});

afterAll(async () => {
  await adapter?.close();
  model?.cleanup();
});

const jsonLines = (records: unknown[]) => `${records.map((record) => JSON.stringify(record)).join("\n")}\n`;
const postLines = (text: string) =>
  rawRequest(adapter.url, {
    body: text,
    headers: { "content-type": "application/jsonlines", "content-length": Buffer.byteLength(text) },
  });

describe("Batch Transform's container contract", () => {
  it("announces its admission limit, single records and its body limit on GET /execution-parameters", async () => {
    const answer = await rawRequest(adapter.url, { method: "GET", path: "/execution-parameters" });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ MaxConcurrentTransforms: 3, BatchStrategy: "SINGLE_RECORD", MaxPayloadInMB: 1 });
  });

  it("answers a JSON Lines body with one line per record, each what the record gets alone, in order", async () => {
    const records = [
      { decision: decision({ id: "a" }) },
      { decision: decision({ id: "b", state: "Policy: no refunds after 30 days. Bought 45 days ago." }) },
      { decisions: [decision({ id: "c1" }), decision({ id: "c2", question: "Should we escalate?" })] },
    ];
    const answer = await postLines(jsonLines(records));
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("application/jsonlines");
    expect(answer.text.endsWith("\n")).toBe(true);
    const lines = answer.text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(3);
    expect(lines.map((line) => line.result?.id ?? line.results.map((r: { id: string }) => r.id))).toEqual([
      "a",
      "b",
      ["c1", "c2"],
    ]);
    const probabilities = (body: { result?: { probabilities: number[] }; results?: { probabilities: number[] }[] }) =>
      body.result ? [body.result.probabilities] : (body.results ?? []).map((result) => result.probabilities);
    for (const [index, record] of records.entries()) {
      const alone = probabilities((await postJson(adapter.url, record)).body as never).flat();
      const batched = probabilities(lines[index]).flat();
      expect(batched).toHaveLength(alone.length);
      expect(Math.max(...batched.map((p, k) => Math.abs(p - alone[k]!)))).toBeLessThan(1e-6);
    }
  });

  it("refuses the whole body naming the line when a record is refused, and answers nothing for the others", async () => {
    const bad = { decision: decision({ id: "x", options: [{ id: "only", description: "one" }] }) };
    const answer = await postLines(jsonLines([{ decision: decision() }, bad]));
    expect(answer.status).toBe(400);
    expect((answer.body as { error: string }).error).toMatch(/^line 2: options must contain 2-/);
    const notJson = await postLines(`${JSON.stringify({ decision: decision() })}\n{"decision":\n`);
    expect(notJson.status).toBe(400);
    expect((notJson.body as { error: string }).error).toMatch(/^line 2: the record is not valid JSON/);
  });

  it("takes JSON Lines on /invocations only, and keeps SemIf's 415 for other types", async () => {
    const text = jsonLines([{ decision: decision() }]);
    const elsewhere = await rawRequest(adapter.url, {
      path: "/v1/systemone",
      body: text,
      headers: { "content-type": "application/jsonlines", "content-length": Buffer.byteLength(text) },
    });
    expect(elsewhere.status).toBe(415);
    // In the shape of the API the path names (TypeSafe's, on /v1/systemone).
    expect(elsewhere.body).toEqual({
      detail: { error_type: "unsupported_media_type", message: "Content-Type must be application/json" },
    });
  });
});

describe("ADAPTER_RECORD_ERRORS=inline (a job over labelled data records refusals per item)", () => {
  let inline: TestAdapter;
  beforeAll(async () => {
    inline = await startTestAdapter(model.file, { ADAPTER_RECORD_ERRORS: "inline" });
  });
  afterAll(async () => {
    await inline?.close();
  });

  it("answers a refused record with the error line it would get alone, the body 200, the other records unchanged", async () => {
    const bad = { decision: decision({ id: "x", options: [{ id: "only", description: "one" }] }) };
    const good = { decision: decision({ id: "a" }) };
    const text = jsonLines([good, bad, { unknown: true }, good]);
    const answer = await rawRequest(inline.url, {
      body: text,
      headers: { "content-type": "application/jsonlines", "content-length": Buffer.byteLength(text) },
    });
    expect(answer.status).toBe(200);
    const lines = answer.text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(4);
    const aloneBad = await postJson(inline.url, bad);
    expect(recordErrorLineSchema.parse(lines[1])).toEqual({ status: aloneBad.status, ...(aloneBad.body as object) });
    expect(lines[1].status).toBe(400);
    expect(lines[2]).toMatchObject({ status: 400, error: expect.stringMatching(/^Unsupported request fields/) });
    const aloneGood = (await postJson(inline.url, good)).body as { result: { probabilities: number[] } };
    for (const line of [lines[0], lines[3]]) {
      expect(line.result.id).toBe("a");
      expect(line.result.probabilities).toEqual(aloneGood.result.probabilities);
    }
  });

  it("leaves the default alone and refuses an unknown mode at start", () => {
    expect(readConfig({}).recordErrors).toBe("fail");
    expect(readConfig({ ADAPTER_RECORD_ERRORS: "inline" }).recordErrors).toBe("inline");
    expect(() => readConfig({ ADAPTER_RECORD_ERRORS: "skip" })).toThrow(
      'ADAPTER_RECORD_ERRORS must be "fail" or "inline", got "skip"',
    );
  });
});

describe("the body limit in a transform job", () => {
  it("is raised to MaxPayloadInMB, and a payload size it cannot bound stops start-up", () => {
    expect(readConfig({ SAGEMAKER_BATCH: "true", SAGEMAKER_MAX_PAYLOAD_IN_MB: "6" }).maxBodyBytes).toBe(6 * 1024 ** 2);
    expect(readConfig({ SAGEMAKER_BATCH: "true" }).maxBodyBytes).toBe(1024 ** 2);
    expect(readConfig({}).maxBodyBytes).toBe(262_144);
    expect(readConfig({ SAGEMAKER_MAX_PAYLOAD_IN_MB: "6" }).maxBodyBytes).toBe(262_144);
    expect(() => readConfig({ SAGEMAKER_BATCH: "true", SAGEMAKER_MAX_PAYLOAD_IN_MB: "0" })).toThrow(
      /SAGEMAKER_MAX_PAYLOAD_IN_MB must be an integer from 1 to 100/,
    );
  });
});

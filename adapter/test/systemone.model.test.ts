import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemOneResponseSchema } from "../src/contract/systemone.ts";
import {
  type GeneratedModel,
  generateModel,
  holdModel,
  postJson,
  rawRequest,
  startTestAdapter,
  type TestAdapter,
} from "./support/adapter-harness.ts";

/** /v1/systemone over HTTP on the project's own generated GGUF (ChatML template), so it runs in every checkout. */

const QUESTIONS = {
  refund: { type: "noul", instructions: "Does the customer ask for a refund?" },
  team: {
    type: "choice",
    instructions: "Which team should handle the ticket?",
    criteria: { billing: "Charges, invoices, refunds", technical: "Bugs and outages", other: null },
  },
  urgency: { type: "score", instructions: "How urgent is the ticket?", criteria: ["can wait", "today", "blocking"] },
};

const request = (overrides: Record<string, unknown> = {}) => ({
  state: { ticket: "I was charged twice for my subscription, please return one payment." },
  model: "jev-latest",
  questions: QUESTIONS,
  ...overrides,
});

const sum = (values: Record<string, number>) => Object.values(values).reduce((a, b) => a + b, 0);

let model: GeneratedModel;
let adapter: TestAdapter;

beforeAll(async () => {
  model = generateModel("tiny");
  adapter = await startTestAdapter(model.file, { ADAPTER_THREADS: "1", SEMIF_MAX_TOKENS: "4096" });
});

afterAll(async () => {
  await adapter?.close();
  model?.cleanup();
});

describe("POST /v1/systemone", () => {
  it("answers every question type in the TypeSafe shape", async () => {
    const response = await postJson(adapter.url, request(), {});
    const direct = await rawRequest(adapter.url, { path: "/v1/systemone", body: JSON.stringify(request()) });
    expect(response.status).toBe(200);
    expect(direct.status).toBe(200);
    const body = systemOneResponseSchema.parse(direct.body);
    expect(body.model).toBe(adapter.engine.metadata.name);
    expect(body.usage.input_tokens).toBeGreaterThan(0);
    expect(body.usage.output_tokens).toBe(0);
    expect(body.x_latency_ms).toBeGreaterThan(0);

    const refund = body.answers.refund!;
    if (refund.type !== "noul") throw new Error("refund must be a noul answer");
    expect(refund.noul).toBe(refund.x_probabilities.yes);
    expect(refund.x_probabilities.yes + refund.x_probabilities.no).toBeCloseTo(1, 6);
    expect(refund.x_confidence).toBeCloseTo(Math.abs(2 * refund.noul - 1), 6);

    const team = body.answers.team!;
    if (team.type !== "choice") throw new Error("team must be a choice answer");
    expect(Object.keys(team.probabilities)).toEqual(["billing", "technical", "other"]);
    expect(sum(team.probabilities)).toBeCloseTo(1, 6);
    const best = Math.max(...Object.values(team.probabilities));
    expect(team.probabilities[team.choice]).toBe(best);
    expect(team.confidence).toBeCloseTo((best - 1 / 3) / (1 - 1 / 3), 6);

    const urgency = body.answers.urgency!;
    if (urgency.type !== "score") throw new Error("urgency must be a score answer");
    expect(Object.keys(urgency.probabilities)).toEqual(["0", "1", "2"]);
    expect(urgency.legend).toEqual({ "0": "can wait", "1": "today", "2": "blocking" });
    const p = urgency.probabilities;
    expect(urgency.score).toBeCloseTo(p["1"]! + 2 * p["2"]!, 6);
    expect(sum(p)).toBeCloseTo(1, 6);
  });

  it("gives the same answers through /invocations as on its own path", async () => {
    const viaInvocations = await postJson(adapter.url, request());
    const direct = await rawRequest(adapter.url, { path: "/v1/systemone", body: JSON.stringify(request()) });
    expect((viaInvocations.body as { answers: unknown }).answers).toEqual(
      (direct.body as { answers: unknown }).answers,
    );
  });

  it("counts the shared state once for all questions of a request", async () => {
    type Answered = { usage: { input_tokens: number }; x_timing: { prefix_tokens: number } };
    const all = (await postJson(adapter.url, request())).body as Answered;
    // Each question alone counts the state prefix once more.
    const separate: number[] = [];
    for (const [id, question] of Object.entries(QUESTIONS)) {
      const one = (await postJson(adapter.url, request({ questions: { [id]: question } }))).body as Answered;
      separate.push(one.usage.input_tokens);
    }
    const prefix = all.x_timing.prefix_tokens;
    expect(all.usage.input_tokens).toBe(separate.reduce((a, b) => a + b, 0) - 2 * prefix);
    expect(adapter.logs.at(-1)!.route).toBe("systemone");
  });

  it("answers invalid input with 422 and a detail entry locating each problem", async () => {
    const cases: Array<[unknown, (string | number)[], string]> = [
      [request({ state: 42 }), ["body", "state"], "must be a string, an object or an array"],
      [request({ questions: {} }), ["body", "questions"], "must contain at least one question"],
      [request({ model: undefined }), ["body", "model"], "Field required"],
      [
        request({ questions: { q: { type: "vote", instructions: "x" } } }),
        ["body", "questions", "q", "type"],
        "must be one of",
      ],
      [
        request({ questions: { q: { type: "choice", instructions: "x", criteria: { a: null } } } }),
        ["body", "questions", "q", "criteria"],
        "must hold 2-255 choices",
      ],
      [request({ x_permutations: 0 }), ["body", "x_permutations"], ""],
    ];
    for (const [body, loc, message] of cases) {
      const response = await rawRequest(adapter.url, { path: "/v1/systemone", body: JSON.stringify(body) });
      expect(response.status, JSON.stringify(body)).toBe(422);
      const detail = (response.body as { detail: Array<{ loc: unknown[]; msg: string; type: string }> }).detail;
      expect(detail[0]!.loc).toEqual(loc);
      expect(detail[0]!.msg).toContain(message);
      expect(typeof detail[0]!.type).toBe("string");
    }
  });

  it("refuses score criteria given as a map with 422: levels are a list, numbered by position", async () => {
    const body = request({
      questions: { s: { type: "score", instructions: "How urgent?", criteria: { "0": "low", "1": "high" } } },
    });
    const response = await rawRequest(adapter.url, { path: "/v1/systemone", body: JSON.stringify(body) });
    expect(response.status).toBe(422);
    expect((response.body as { detail: Array<{ loc: unknown[] }> }).detail[0]!.loc).toEqual([
      "body",
      "questions",
      "s",
      "criteria",
    ]);
  });

  it("refuses a score of 11 levels and takes one of 10", async () => {
    const levels = (n: number) => Array.from({ length: n }, (_, i) => `level ${i}`);
    const ask = (n: number) =>
      rawRequest(adapter.url, {
        path: "/v1/systemone",
        body: JSON.stringify(
          request({ questions: { s: { type: "score", instructions: "How much?", criteria: levels(n) } } }),
        ),
      });
    expect((await ask(11)).status).toBe(422);
    const ten = await ask(10);
    expect(ten.status).toBe(200);
    expect(
      Object.keys((ten.body as { answers: { s: { probabilities: object } } }).answers.s.probabilities),
    ).toHaveLength(10);
  });

  it("reads structured instructions and descriptions (objects and arrays) as text", async () => {
    const body = request({
      questions: {
        dup: {
          type: "noul",
          instructions: { question: "Is `other` the same customer?", other: { name: "Ann", city: "Oakland" } },
        },
        team: {
          type: "choice",
          instructions: ["Which team?", "Pick one."],
          criteria: { billing: { handles: ["charges", "refunds"] }, technical: ["bugs", "outages"] },
        },
        size: { type: "score", instructions: "How big?", criteria: [{ level: "small" }, ["large", "huge"]] },
      },
    });
    const response = await rawRequest(adapter.url, { path: "/v1/systemone", body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    const parsed = systemOneResponseSchema.parse(response.body);
    expect(Object.keys(parsed.answers)).toEqual(["dup", "team", "size"]);
    const size = parsed.answers.size!;
    if (size.type !== "score") throw new Error("size must be a score answer");
    expect(size.legend).toEqual({ "0": { level: "small" }, "1": ["large", "huge"] });
  });

  it("answers a noul question without instructions when its criteria describe an outcome", async () => {
    const body = request({ questions: { spam: { type: "noul", criteria: { true: "Unsolicited advertising" } } } });
    const response = await rawRequest(adapter.url, { path: "/v1/systemone", body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    expect((response.body as { answers: { spam: { type: string } } }).answers.spam.type).toBe("noul");
    const bare = request({ questions: { spam: { type: "noul" } } });
    expect((await rawRequest(adapter.url, { path: "/v1/systemone", body: JSON.stringify(bare) })).status).toBe(422);
  });

  it("prefixes every field beyond TypeSafe's documented ones with x_", async () => {
    const body = (await rawRequest(adapter.url, { path: "/v1/systemone", body: JSON.stringify(request()) })).body as {
      answers: Record<string, Record<string, unknown>>;
    } & Record<string, unknown>;
    const documented = {
      top: ["model", "answers", "usage"],
      noul: ["type", "noul"],
      choice: ["type", "choice", "confidence", "probabilities"],
      score: ["type", "score", "confidence", "legend", "probabilities"],
    };
    const extra = (keys: string[], allowed: string[]) =>
      keys.filter((k) => !allowed.includes(k) && !k.startsWith("x_"));
    expect(extra(Object.keys(body), documented.top)).toEqual([]);
    for (const answer of Object.values(body.answers)) {
      expect(extra(Object.keys(answer), documented[answer.type as "noul" | "choice" | "score"])).toEqual([]);
    }
  });

  it("refuses reserved control-token text anywhere in the request with 400 detail.message", async () => {
    const reserved = adapter.engine.reservedTokens[0]!;
    const response = await rawRequest(adapter.url, {
      path: "/v1/systemone",
      body: JSON.stringify(request({ state: `ticket ${reserved} text` })),
    });
    expect(response.status).toBe(400);
    const detail = (response.body as { detail: { error_type: string; message: string } }).detail;
    expect(detail.message).toContain("reserved prompt control token");
    expect(detail.error_type).toBe("invalid_request");
  });

  it("refuses a question whose prompt exceeds the token limit with 400 max_tokens_exceeded naming the limit", async () => {
    const response = await rawRequest(adapter.url, {
      path: "/v1/systemone",
      body: JSON.stringify(request({ state: "word ".repeat(6000) })),
    });
    expect(response.status).toBe(400);
    const detail = (response.body as { detail: { error_type: string; message: string } }).detail;
    expect(detail.error_type).toBe("max_tokens_exceeded");
    expect(detail.message).toMatch(/^questions\.refund: the prompt needs \d+ tokens, .*SEMIF_MAX_TOKENS/);
  });

  it("refuses images (assets, box questions) with 400: the model reads text only", async () => {
    for (const body of [
      request({ assets: { "img-1": { type: "image", format: "png", data_base64: "iVBORw0KGgo=" } } }),
      request({ questions: { dog: { type: "box", instructions: "The dog" } } }),
    ]) {
      const response = await rawRequest(adapter.url, { path: "/v1/systemone", body: JSON.stringify(body) });
      expect(response.status).toBe(400);
      expect((response.body as { detail: { message: string } }).detail.message).toContain("text only");
    }
  });

  it("answers refusals made before the route runs in TypeSafe's shape too (415, body not JSON, busy)", async () => {
    const wrongType = await rawRequest(adapter.url, {
      path: "/v1/systemone",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify(request()),
    });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body).toEqual({
      detail: { error_type: "unsupported_media_type", message: "Content-Type must be application/json" },
    });
    const notJson = await rawRequest(adapter.url, { path: "/v1/systemone", body: "{not json" });
    expect(notJson.status).toBe(400);
    expect((notJson.body as { detail: { error_type: string } }).detail.error_type).toBe("invalid_request");
    const held = holdModel(adapter);
    const first = rawRequest(adapter.url, { path: "/v1/systemone", body: JSON.stringify(request()) });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const busy = await rawRequest(adapter.url, { path: "/v1/systemone", body: JSON.stringify(request()) });
    held.release();
    expect((await first).status).toBe(200);
    expect(busy.status).toBe(503);
    expect(busy.headers["retry-after"]).toBe("1");
    expect((busy.body as { detail: { error_type: string } }).detail.error_type).toBe("server_busy");
  });

  it("answers 503 retryable through /invocations while one request is being scored", async () => {
    const held = holdModel(adapter);
    const body = JSON.stringify(request());
    const first = rawRequest(adapter.url, { path: "/v1/systemone", body });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = await rawRequest(adapter.url, { path: "/invocations", body });
    held.release();
    expect(second.status).toBe(503);
    expect(second.headers["retry-after"]).toBe("1");
    expect(second.body).toEqual({ error: "model is busy; retry the request", retryable: true });
    expect((await first).status).toBe(200);
  });
});

describe("GET /v1/models", () => {
  it("lists the loaded model in TypeSafe's shape and in OpenAI's", async () => {
    const response = await rawRequest(adapter.url, { method: "GET", path: "/v1/models" });
    expect(response.status).toBe(200);
    const body = response.body as {
      models: Array<{ name: string; description: string; release_date: string }>;
      object: string;
      data: Array<{ id: string; object: string; x_meta: unknown }>;
    };
    expect(body.models).toHaveLength(1);
    expect(body.models[0]!.name).toBe(adapter.engine.metadata.name);
    expect(body.models[0]!.release_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(body.models[0]!.description.length).toBeGreaterThan(0);
    expect(body.object).toBe("list");
    expect(body.data[0]!.id).toBe(adapter.engine.metadata.name);
    expect(body.data[0]!.x_meta).toEqual(adapter.engine.metadata);
  });
});

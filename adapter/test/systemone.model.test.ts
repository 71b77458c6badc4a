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
    expect(body.latency_ms).toBeGreaterThan(0);

    const refund = body.answers.refund!;
    if (refund.type !== "noul") throw new Error("refund must be a noul answer");
    expect(refund.noul).toBe(refund.probabilities.yes);
    expect(refund.value).toBe(refund.noul);
    expect(refund.probabilities.yes + refund.probabilities.no).toBeCloseTo(1, 6);
    expect(refund.confidence).toBeCloseTo(Math.abs(2 * refund.noul - 1), 6);

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
    type Answered = { usage: { input_tokens: number }; timing: { prefix_tokens: number } };
    const all = (await postJson(adapter.url, request())).body as Answered;
    // Each question alone counts the state prefix once more.
    const separate: number[] = [];
    for (const [id, question] of Object.entries(QUESTIONS)) {
      const one = (await postJson(adapter.url, request({ questions: { [id]: question } }))).body as Answered;
      separate.push(one.usage.input_tokens);
    }
    const prefix = all.timing.prefix_tokens;
    expect(all.usage.input_tokens).toBe(separate.reduce((a, b) => a + b, 0) - 2 * prefix);
    expect(adapter.logs.at(-1)!.route).toBe("systemone");
  });

  it("answers invalid input with 422 naming the field", async () => {
    const cases: Array<[unknown, string]> = [
      [request({ state: 42 }), "state: must be a string, an object or an array"],
      [request({ questions: {} }), "questions: must contain at least one question"],
      [request({ questions: { q: { type: "vote", instructions: "x" } } }), "questions.q.type: must be one of"],
      [
        request({ questions: { q: { type: "choice", instructions: "x", criteria: { a: null } } } }),
        "questions.q.criteria",
      ],
      [request({ questions: { q: { type: "noul", instructions: "" } } }), "questions.q.instructions"],
      [request({ permutations: 0 }), "permutations:"],
    ];
    for (const [body, message] of cases) {
      const response = await rawRequest(adapter.url, { path: "/v1/systemone", body: JSON.stringify(body) });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect((response.body as { error: string }).error).toContain(message);
    }
  });

  it("refuses reserved control-token text anywhere in the request with 422", async () => {
    const reserved = adapter.engine.reservedTokens[0]!;
    const response = await rawRequest(adapter.url, {
      path: "/v1/systemone",
      body: JSON.stringify(request({ state: `ticket ${reserved} text` })),
    });
    expect(response.status).toBe(422);
    expect((response.body as { error: string }).error).toContain("reserved prompt control token");
  });

  it("refuses a question whose prompt exceeds the token limit with 422, without truncating", async () => {
    const response = await rawRequest(adapter.url, {
      path: "/v1/systemone",
      body: JSON.stringify(request({ state: "word ".repeat(6000) })),
    });
    expect(response.status).toBe(422);
    expect((response.body as { error: string }).error).toMatch(/^questions\.refund: the prompt needs \d+ tokens/);
  });

  it("answers 503 retryable to a second request while one is being scored", async () => {
    const held = holdModel(adapter);
    const body = JSON.stringify(request());
    const first = rawRequest(adapter.url, { path: "/v1/systemone", body });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = await rawRequest(adapter.url, { path: "/v1/systemone", body });
    held.release();
    expect(second.status).toBe(503);
    expect(second.body).toEqual({ error: "model is busy; retry the request", retryable: true });
    expect((await first).status).toBe(200);
  });
});

describe("GET /v1/models", () => {
  it("lists the loaded model with its metadata", async () => {
    const response = await rawRequest(adapter.url, { method: "GET", path: "/v1/models" });
    expect(response.status).toBe(200);
    const body = response.body as { object: string; data: Array<{ id: string; object: string; meta: unknown }> };
    expect(body.object).toBe("list");
    expect(body.data).toHaveLength(1);
    expect(body.data[0]!.id).toBe(adapter.engine.metadata.name);
    expect(body.data[0]!.meta).toEqual(adapter.engine.metadata);
  });
});

import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type GeneratedModel,
  generateModel,
  postJson,
  rawRequest,
  startTestAdapter,
  type TestAdapter,
} from "./support/adapter-harness.ts";

/**
 * The official decision clients, pinned and unchanged, against the adapter on the project's generated GGUF:
 * TypeSafe's `typesafe-sdk` 0.7.5 and OpenAI's `openai` 3.63.0 in Python (requirements/tests.txt, .venv-tests/,
 * driven by tests/python/decision_clients/drive_clients.py), and the `openai` npm package 7.55.0 here.
 */

const root = path.resolve(import.meta.dirname, "../..");
const python = path.join(root, ".venv-tests/bin/python");
const required = process.env.PYTHON_TESTS === "required";
const pythonAvailable = fs.existsSync(python);
if (!pythonAvailable) {
  const skipped = path.join(root, ".venv-tests/SKIPPED");
  const reason = fs.existsSync(skipped) ? fs.readFileSync(skipped, "utf8").trim() : "no .venv-tests (npm run py:env)";
  console.warn(`Python decision clients: skipped: ${reason}`);
}

let model: GeneratedModel;
let adapter: TestAdapter;

beforeAll(async () => {
  model = generateModel("tiny");
  // The adapter's own defaults (SEMIF_MAX_TOKENS 4096), not the harness's smaller test budget.
  adapter = await startTestAdapter(model.file, { ADAPTER_THREADS: "1", SEMIF_MAX_TOKENS: "4096" });
});

afterAll(async () => {
  await adapter?.close();
  model?.cleanup();
});

type ClientError = { error: string; status: number; message: string; body: unknown; request_id: string | null };
type Driven = {
  typesafe: {
    all_types: {
      model: string;
      noul: number;
      choice: string;
      choice_probabilities: Record<string, number>;
      choice_confidence: number;
      score: number;
      score_probabilities: Record<string, number>;
      input_tokens: number;
      request_id: string;
    };
    structured: string[];
    choices_255: { answered: number } | ClientError;
    score_11: ClientError;
    too_long: ClientError;
    models: { name: string; release_date: string }[];
  };
  openai: {
    all_types: { answers: Record<string, unknown>[]; model: string; usage: Record<string, unknown> };
    messages: { answers: Record<string, unknown>[]; usage: { input_tokens_details: { cached_tokens: number } } };
    image: ClientError;
    one_choice: ClientError;
    models: string[];
  };
};

describe.skipIf(!pythonAvailable && !required)("the Python clients (typesafe-sdk, openai) against the adapter", () => {
  let driven: Driven;
  // Asynchronously: the adapter answers from this very process.
  beforeAll(async () => {
    const run = await promisify(execFile)(python, ["tests/python/decision_clients/drive_clients.py", adapter.url], {
      cwd: root,
      encoding: "utf8",
      timeout: 300_000,
    });
    driven = JSON.parse(run.stdout) as Driven;
  }, 320_000);

  it("typesafe-sdk reads noul, choice and score answers with the served model's name", () => {
    const answered = driven.typesafe.all_types;
    expect(answered.model).toBe(adapter.engine.metadata.name);
    expect(answered.noul).toBeGreaterThanOrEqual(0);
    expect(answered.noul).toBeLessThanOrEqual(1);
    expect(Object.keys(answered.choice_probabilities)).toEqual(["billing", "technical"]);
    expect(answered.choice_probabilities[answered.choice]).toBe(
      Math.max(...Object.values(answered.choice_probabilities)),
    );
    const best = Math.max(...Object.values(answered.choice_probabilities));
    expect(answered.choice_confidence).toBeCloseTo((best - 1 / 2) / (1 - 1 / 2), 6);
    expect(Object.keys(answered.score_probabilities)).toEqual(["0", "1", "2"]);
    const p = answered.score_probabilities;
    expect(answered.score).toBeCloseTo(p["1"]! + 2 * p["2"]!, 6);
    expect(answered.input_tokens).toBeGreaterThan(0);
  });

  it("typesafe-sdk reads x-typesafe-request-id into an answer's and an error's request_id: the adapter's request id", () => {
    const logged = (requestId: string | null) =>
      adapter.logs.find((line) => line.request_id === requestId && line.path === "/v1/systemone")?.status;
    expect(driven.typesafe.all_types.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(logged(driven.typesafe.all_types.request_id)).toBe(200);
    expect(driven.typesafe.score_11.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(driven.typesafe.score_11.request_id).not.toBe(driven.typesafe.all_types.request_id);
    expect(logged(driven.typesafe.score_11.request_id)).toBe(422);
  });

  it("typesafe-sdk sends structured text and a noul without instructions, and gets every answer", () => {
    expect(driven.typesafe.structured).toEqual(["same", "size", "spam", "team"]);
  });

  it("typesafe-sdk's 255 described choices are refused with 400 max_tokens_exceeded naming SEMIF_MAX_TOKENS", () => {
    const refused = driven.typesafe.choices_255 as ClientError;
    expect(refused.error).toBe("TypeSafeBadRequestError");
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ detail: { error_type: "max_tokens_exceeded" } });
    expect(refused.message).toContain("SEMIF_MAX_TOKENS");
  });

  it("typesafe-sdk raises its 422 error, with the located message, for 11 score levels", () => {
    const refused = driven.typesafe.score_11;
    expect(refused.error).toBe("TypeSafeUnprocessableEntityError");
    expect(refused.status).toBe(422);
    expect(refused.message).toContain("questions.s.criteria: must hold 2-10 levels");
  });

  it("typesafe-sdk raises its 400 error with detail.message for a state too long for the model", () => {
    expect(driven.typesafe.too_long.error).toBe("TypeSafeBadRequestError");
    expect(driven.typesafe.too_long.message).toContain("the prompt needs");
  });

  it("typesafe-sdk lists the served model", () => {
    expect(driven.typesafe.models).toEqual([
      { name: adapter.engine.metadata.name, release_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
    ]);
  });

  it("openai decisions.create answers predicate, choice (typed values) and score questions in order", () => {
    const decision = driven.openai.all_types;
    expect(decision.model).toBe(adapter.engine.metadata.name);
    expect(decision.answers.map((a) => [a.type, a.name])).toEqual([
      ["predicate", "refund"],
      ["choice", "team"],
      ["score", null],
    ]);
    const choice = decision.answers[1] as { choice: unknown; probabilities: { value: unknown; probability: number }[] };
    expect(choice.probabilities.map((p) => p.value)).toEqual(["billing", true, "true"]);
    const best = choice.probabilities.reduce((a, b) => (b.probability > a.probability ? b : a));
    expect(choice.choice).toEqual(best.value);
    const score = decision.answers[2] as {
      score: number;
      probabilities: { label: string; value: number; probability: number }[];
    };
    expect(score.probabilities.map((p) => [p.label, p.value])).toEqual([
      ["low", 0],
      ["medium", 1],
      ["high", 2],
    ]);
    expect(score.score).toBeCloseTo(score.probabilities[1]!.probability + 2 * score.probabilities[2]!.probability, 6);
    expect(decision.usage).toMatchObject({ output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 } });
    expect(decision.usage.total_tokens).toBe(decision.usage.input_tokens);
  });

  it("openai decisions.create takes messages with text and JSON parts", () => {
    expect(driven.openai.messages.answers).toEqual([
      { type: "predicate", name: null, probability: expect.any(Number) },
    ]);
  });

  it("openai refuses an image part with 400 saying the model reads text only", () => {
    expect(driven.openai.image.error).toBe("BadRequestError");
    expect(driven.openai.image.message).toContain("reads text only");
    expect(driven.openai.image.body).toMatchObject({ code: "unsupported_content", type: "invalid_request_error" });
  });

  it("openai reads x-request-id into an error's request_id: the adapter's request id", () => {
    const requestId = driven.openai.image.request_id;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(adapter.logs.find((line) => line.request_id === requestId)).toMatchObject({
      path: "/v1/decisions",
      status: 400,
    });
  });

  it("openai refuses a choice question with one choice with 400", () => {
    expect(driven.openai.one_choice.error).toBe("BadRequestError");
    expect(driven.openai.one_choice.message).toContain("must hold 2-255 choices");
  });

  it("openai models.list lists the served model", () => {
    expect(driven.openai.models).toEqual([adapter.engine.metadata.name]);
  });
});

describe("the openai npm client (decisions.create) against the adapter", () => {
  const client = () => new OpenAI({ apiKey: "unused-by-the-adapter", baseURL: `${adapter.url}/v1`, maxRetries: 0 });

  it("answers every question type, in question order", async () => {
    const decision = await client().decisions.create({
      model: "gpt-6-luna",
      input: [{ role: "user", content: "I was charged twice, please refund one payment." }],
      questions: [
        { type: "predicate", instructions: "The customer wants money back." },
        {
          type: "choice",
          name: "team",
          instructions: "Which team?",
          choices: [{ value: "billing" }, { value: false }],
        },
        { type: "score", instructions: "How urgent?", levels: [{ label: "low" }, { label: "high" }] },
      ],
    });
    expect(decision.model).toBe(adapter.engine.metadata.name);
    expect(decision.answers.map((answer) => answer.type)).toEqual(["predicate", "choice", "score"]);
    const choice = decision.answers[1]!;
    if (choice.type !== "choice") throw new Error("the second answer must be a choice");
    expect(choice.probabilities.map((p) => p.value)).toEqual(["billing", false]);
    expect(choice.probabilities.reduce((sum, p) => sum + p.probability, 0)).toBeCloseTo(1, 6);
  });

  it("reuses the input prefix of an earlier request: cached_tokens counts it", async () => {
    const ask = () =>
      client().decisions.create({
        model: "gpt-6-luna",
        input: "A long shared ticket text that two requests ask about.",
        questions: [{ type: "predicate", instructions: "Is it about billing?" }],
        prompt_cache_key: "shared-ticket",
      });
    await ask();
    const second = await ask();
    expect(second.usage.input_tokens_details.cached_tokens).toBeGreaterThan(0);
  });

  it("answers a question too long for the model with a refusal and the others as usual", async () => {
    const decision = await client().decisions.create({
      model: "gpt-6-luna",
      input: "Ticket.",
      questions: [
        { type: "predicate", name: "long", instructions: "word ".repeat(6000) },
        { type: "predicate", name: "short", instructions: "Is it a ticket?" },
      ],
    });
    expect(decision.answers.map((answer) => [answer.type, answer.name])).toEqual([
      ["refusal", "long"],
      ["predicate", "short"],
    ]);
  });

  it("raises BadRequestError with the error shape for an image part", async () => {
    const error = await client()
      .decisions.create({
        model: "gpt-6-luna",
        input: [{ role: "user", content: [{ type: "input_image", image_url: "https://example.com/dog.png" }] }],
        questions: [{ type: "predicate", instructions: "Is there a dog?" }],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).toContain("reads text only");
  });

  it("gets the same answers through /invocations, routed by the body's input and questions", async () => {
    const body = {
      model: "gpt-6-luna",
      input: "I was charged twice.",
      questions: [
        { type: "choice", instructions: "Which team?", choices: [{ value: "billing" }, { value: "support" }] },
      ],
    };
    const direct = await rawRequest(adapter.url, { path: "/v1/decisions", body: JSON.stringify(body) });
    const routed = await postJson(adapter.url, body);
    expect(routed.status).toBe(200);
    expect(adapter.logs.at(-1)!.route).toBe("openai-decisions");
    expect((routed.body as { answers: unknown }).answers).toEqual((direct.body as { answers: unknown }).answers);
  });

  it("answers a refusal made before the route runs (wrong content type) in OpenAI's error shape", async () => {
    const response = await rawRequest(adapter.url, {
      path: "/v1/decisions",
      headers: { "content-type": "text/plain" },
      body: "{}",
    });
    expect(response.status).toBe(415);
    expect(response.body).toEqual({
      error: {
        message: "Content-Type must be application/json",
        type: "invalid_request_error",
        param: null,
        code: "unsupported_media_type",
      },
    });
  });
});

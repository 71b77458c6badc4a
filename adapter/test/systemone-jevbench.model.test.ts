import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { getLlama, type Llama, type LlamaContext, type LlamaModel } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  jevBenchItemSchema,
  jevBenchToSystemOne,
  type SystemOneAnswer,
  systemOneAnswerSchema,
} from "../src/contract/index.ts";
import { chooseTemplate } from "../src/engine/prompt.ts";
import { RequestError } from "../src/engine/request-error.ts";
import { SystemOneEngine } from "../src/engine/systemone.ts";
import { systemOneAnswers, systemOneScoring } from "../src/engine/systemone-service.ts";
import { type GeneratedModel, generateModel, sharedPath } from "./support/adapter-harness.ts";
import { modelSpec, writeModel } from "./support/llama-model.ts";

/**
 * Every JevBench decision as a /v1/systemone request, answered over exactly its own label set. The answers of
 * these models are meaningless; shapes, label sets and probability sums are what is checked. stories260K's
 * training context (2,048 tokens) is shorter than about 46 of JevBench's prompts (up to about 10,900 tokens):
 * those must be refused as the adapter refuses them (400 max_tokens_exceeded, never truncated), and a generated long-context GGUF
 * answers all 231. The engine is driven directly here; its HTTP route is tested in systemone.model.test.ts.
 */

const JEVBENCH = sharedPath("bench/jevbench.jsonl");
const STORIES = sharedPath("fixtures/models/stories260K.gguf");
if (!JEVBENCH) console.warn("skipping the 231 JevBench items: ../shared/bench/jevbench.jsonl not found");
if (!STORIES) console.warn("skipping JevBench on stories260K: ../shared/fixtures/models/stories260K.gguf not found");

const FIXTURE_CONTEXT = 2048;
const LONG_CONTEXT = 12288;

const items = JEVBENCH
  ? readFileSync(JEVBENCH, "utf8")
      .split("\n")
      .filter((line) => line.trim())
      .map((line) => jevBenchItemSchema.parse(JSON.parse(line)))
  : [];

/** Items of all three types that need no shared file, for the generated model. */
const SYNTHETIC = [
  {
    id: "synthetic-noul",
    state: { policy: "Refunds need a receipt.", request: "Refund without receipt." },
    question: "Is the request permitted?",
    options: [
      { id: "no", description: "A condition is missing." },
      { id: "yes", description: "Every condition holds." },
    ],
    answer: "no",
    type: "noul" as const,
  },
  {
    id: "synthetic-choice",
    state: "Please return the duplicate charge.",
    question: "Select the requested action.",
    options: [
      { id: "cancel", description: "End a subscription" },
      { id: "refund", description: "Return money" },
      { id: "other", description: "Anything else" },
    ],
    answer: "refund",
    type: "choice" as const,
  },
  {
    id: "synthetic-score",
    state: "The icon is misaligned.",
    question: "Rate the impact.",
    options: ["cosmetic", "workaround", "blocked", "data loss"].map((description, i) => ({
      id: String(i),
      description,
    })),
    answer: "0",
    type: "score" as const,
  },
];

function expectAnswerOverLabels(answer: SystemOneAnswer | undefined, labels: string[], type: string) {
  systemOneAnswerSchema.parse(answer);
  expect(answer!.type).toBe(type);
  const probabilities = (answer!.type === "noul" ? answer!.x_probabilities : answer!.probabilities) as Record<
    string,
    number
  >;
  expect(new Set(Object.keys(probabilities))).toEqual(new Set(labels));
  const values = Object.values(probabilities);
  expect(values.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
  expect(values.every((p) => Number.isFinite(p) && p >= 0 && p <= 1)).toBe(true);
  const confidence = answer!.type === "noul" ? answer!.x_confidence : answer!.confidence;
  expect(confidence).toBeGreaterThanOrEqual(0);
  expect(confidence).toBeLessThanOrEqual(1);
  if (answer!.type === "choice") expect(labels).toContain(answer!.choice);
  if (answer!.type === "score") expect(answer!.score).toBeLessThanOrEqual(labels.length - 1);
}

async function openEngine(file: string, contextSize: number) {
  const llama = await getLlama({ build: "never", gpu: false });
  const model = await llama.loadModel({ modelPath: file, gpuLayers: 0 });
  // Flash attention off: on CPU it is several times slower for this tiny head size, and results do not need it.
  const context = await model.createContext({ contextSize, threads: 1, sequences: 1, flashAttention: false });
  const engine = new SystemOneEngine(
    model,
    chooseTemplate(model, "auto"),
    { maxTokens: contextSize, maxRequestTokens: 4 * contextSize, maxQuestions: 64 },
    1,
  );
  return { llama, model, context, engine };
}

async function closeEngine(opened: { llama: Llama; model: LlamaModel; context: LlamaContext } | undefined) {
  await opened?.context.dispose();
  await opened?.model.dispose();
  await opened?.llama.dispose();
}

describe.skipIf(!JEVBENCH || !STORIES)("the 231 JevBench items on stories260K (2,048-token context)", () => {
  let opened: Awaited<ReturnType<typeof openEngine>>;
  beforeAll(async () => {
    opened = await openEngine(STORIES!, FIXTURE_CONTEXT);
  });
  afterAll(() => closeEngine(opened));

  it("answers each item that fits over exactly its label set, and refuses the others with 400 max_tokens_exceeded", {
    timeout: 1_800_000,
  }, async () => {
    expect(items).toHaveLength(231);
    const sequence = opened.context.getSequence();
    let answered = 0;
    for (const item of items) {
      const converted = jevBenchToSystemOne(item);
      let plan: ReturnType<typeof opened.engine.plan>;
      try {
        plan = opened.engine.plan(systemOneScoring(converted.request));
      } catch (error) {
        expect(error).toBeInstanceOf(RequestError);
        expect((error as RequestError).status).toBe(400);
        expect((error as RequestError).code).toBe("max_tokens_exceeded");
        expect((error as RequestError).message).toMatch(/^questions\.decision: the prompt needs \d+ tokens/);
        continue;
      }
      const response = await opened.engine.answer(sequence, plan, { temperature: 1, reusePrefix: true });
      const answers = systemOneAnswers(converted.request, response);
      expectAnswerOverLabels(answers[converted.questionId], converted.labels, item.type);
      answered++;
    }
    // About 46 hard-tier prompts are longer than this model's training context; the rest must be answered.
    expect(answered).toBeGreaterThanOrEqual(180);
  });
});

describe.skipIf(!JEVBENCH)("the 231 JevBench items on a generated long-context GGUF", () => {
  let directory: string;
  let opened: Awaited<ReturnType<typeof openEngine>>;
  beforeAll(async () => {
    directory = mkdtempSync(path.join(os.tmpdir(), "jevbench-model-"));
    const file = path.join(directory, "long-context.gguf");
    // One small attention head: JevBench's longest prompts (about 10,800 tokens) fit, and the quadratic attention
    // cost of evaluating all 231 stays affordable on a CPU.
    writeModel(
      {
        ...modelSpec("tiny"),
        name: "synthetic-long-context",
        shape: { embedding: 16, layers: 1, heads: 1, kvHeads: 1, feedForward: 32, contextLength: LONG_CONTEXT },
      },
      file,
    );
    opened = await openEngine(file, LONG_CONTEXT);
  });
  afterAll(async () => {
    await closeEngine(opened);
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  it("answers every item over exactly its label set", { timeout: 1_800_000 }, async () => {
    const sequence = opened.context.getSequence();
    const counts = { choice: 0, noul: 0, score: 0 };
    for (const item of items) {
      const converted = jevBenchToSystemOne(item);
      const scoring = systemOneScoring(converted.request);
      const response = await opened.engine.answer(sequence, opened.engine.plan(scoring), {
        temperature: 1,
        reusePrefix: true,
      });
      const answers = systemOneAnswers(converted.request, response);
      expectAnswerOverLabels(answers[converted.questionId], converted.labels, item.type);
      counts[item.type]++;
    }
    expect(counts).toEqual({ choice: 139, noul: 74, score: 18 });
  });
});

describe("JevBench-shaped items on the generated GGUF", () => {
  let model: GeneratedModel;
  let opened: Awaited<ReturnType<typeof openEngine>>;
  beforeAll(async () => {
    model = generateModel("tiny");
    opened = await openEngine(model.file, 4096);
  });
  afterAll(async () => {
    await closeEngine(opened);
    model?.cleanup();
  });

  it("answers noul, choice and score items over their label sets (and the short JevBench items when present)", async () => {
    const sequence = opened.context.getSequence();
    const short = items.filter((item) => item.tier === "original");
    for (const item of [...SYNTHETIC, ...short]) {
      const converted = jevBenchToSystemOne(item);
      const scoring = systemOneScoring(converted.request);
      const response = await opened.engine.answer(sequence, opened.engine.plan(scoring), {
        temperature: 1,
        reusePrefix: true,
      });
      const answers = systemOneAnswers(converted.request, response);
      expectAnswerOverLabels(answers[converted.questionId], converted.labels, item.type);
    }
  });
});

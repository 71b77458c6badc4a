import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  decision,
  type GeneratedModel,
  generateModel,
  postJson,
  rawRequest,
  startTestAdapter,
  type TestAdapter,
} from "./support/adapter-harness.ts";
import { seededUniform } from "./support/llama-model.ts";

const BODIES = 2400;
const CONCURRENCY = 3;
const random = seededUniform(20261130);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const ODD_STRINGS = [
  "",
  " ",
  "<s>",
  "</s>",
  "<|im_start|>",
  "<think>",
  "\u0000",
  "\ud800",
  "😀".repeat(50),
  "Ωμέγα",
  "a".repeat(3000),
  "\n\n\n",
  "A.",
  '{"decision":1}',
  "__proto__",
  "constructor",
];
const ODD_VALUES: unknown[] = [null, 0, -1, 1e308, true, [], {}, [[[]]], { a: { b: { c: {} } } }, ...ODD_STRINGS];

function randomValue(depth = 0): unknown {
  const roll = random();
  if (roll < 0.5 || depth > 3) return pick(ODD_VALUES);
  if (roll < 0.75) return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(depth + 1));
  return Object.fromEntries(
    Array.from({ length: Math.floor(random() * 4) }, () => [pick(ODD_STRINGS), randomValue(depth + 1)]),
  );
}

function mutate(value: unknown, depth = 0): unknown {
  if (typeof value !== "object" || value === null || depth > 4) return random() < 0.3 ? randomValue() : value;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [...value] : { ...(value as object) };
  const keys = Object.keys(copy);
  const action = random();
  if (action < 0.15 && keys.length > 0) {
    if (Array.isArray(copy)) copy.splice(Number(pick(keys)), 1);
    else delete copy[pick(keys)];
  } else if (action < 0.3) {
    (copy as Record<string, unknown>)[Array.isArray(copy) ? String(copy.length) : pick(ODD_STRINGS)] = randomValue();
  } else if (keys.length > 0) {
    const key = pick(keys);
    (copy as Record<string, unknown>)[key] =
      random() < 0.3 ? randomValue() : mutate((copy as Record<string, unknown>)[key], depth + 1);
  }
  return copy;
}

const seeds = (): unknown[] => [
  { decision: decision() },
  { decisions: [decision(), decision({ id: "d2", question: "Escalate?" })] },
  { decision: decision({ state: { ticket: { id: 7, tags: ["a", "b"] } } }) },
];

/** A body: a mutated valid request, raw bytes, truncated or deeply nested JSON. */
function fuzzBody(index: number): { body: string; contentType?: string } {
  const kind = index % 10;
  if (kind === 0) return { body: JSON.stringify(pick(seeds())).slice(0, Math.floor(random() * 80)) };
  if (kind === 1)
    return { body: Buffer.from(Array.from({ length: 40 }, () => Math.floor(random() * 256))).toString("latin1") };
  if (kind === 2) {
    const depth = 1000 + Math.floor(random() * 5000);
    return {
      body: `{"decision":${JSON.stringify(decision({ state: "x" })).slice(0, -1)},"state":${"[".repeat(depth)}${"]".repeat(depth)}}}`,
    };
  }
  if (kind === 3)
    return { body: JSON.stringify(pick(seeds())), contentType: pick(["text/plain", "application/xml", ""]) };
  let value = pick(seeds());
  const rounds = 1 + Math.floor(random() * 3);
  for (let round = 0; round < rounds; round++) value = mutate(value);
  return { body: JSON.stringify(value) ?? "null" };
}

let model: GeneratedModel;
let adapter: TestAdapter;

beforeAll(async () => {
  model = generateModel("tiny");
  adapter = await startTestAdapter(model.file, { SEMIF_MAX_TOKENS: "512", SEMIF_MAX_BODY_BYTES: "65536" });
});

afterAll(async () => {
  await adapter?.close();
  model?.cleanup();
});

describe("fuzzing /invocations", () => {
  it(`answers ${BODIES} random and mutated bodies with 2xx/4xx or 503 busy, and still scores afterwards`, async () => {
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < BODIES) {
        const { body, contentType } = fuzzBody(next++);
        const response = await rawRequest(adapter.url, {
          body,
          headers: contentType === undefined ? {} : { "content-type": contentType },
        });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status >= 500 && response.status !== 503)
          throw new Error(`${response.status} for body ${body.slice(0, 200)}`);
        if (response.status === 503)
          expect(response.body).toEqual({ error: "model is busy; retry the request", retryable: true });
        else if (response.status !== 200) expect(typeof (response.body as { error: unknown }).error).toBe("string");
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const answered = [...statuses.values()].reduce((a, b) => a + b, 0);
    expect(answered).toBe(BODIES);
    expect(statuses.get(400)).toBeGreaterThan(0);
    expect(statuses.get(200)).toBeGreaterThan(0);
    const after = await postJson(adapter.url, { decision: decision() });
    expect(after.status).toBe(200);
    expect((await rawRequest(adapter.url, { method: "GET", path: "/ping" })).status).toBe(200);
  }, 300_000);
});

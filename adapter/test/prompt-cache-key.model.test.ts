import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type GeneratedModel,
  generateModel,
  rawRequest,
  startTestAdapter,
  type TestAdapter,
} from "./support/adapter-harness.ts";

/**
 * OpenAI documents `prompt_cache_key` as "Partition prompt cache reuse by caller-provided key" (openai 3.63.0
 * `DecisionCreateParams`, npm 7.55.0 alike). Read through the adapter's cache counters: a request reuses the
 * evaluated state (`cached_tokens`, `x_timing.reused_tokens`) and cached readings (`x_timing.cache_hits`) only of
 * requests with the same key, and requests without a key are a partition of their own.
 */

type Answered = {
  answers: { type: string; probability?: number; probabilities?: { probability: number }[] }[];
  usage: { input_tokens_details: { cached_tokens: number } };
  x_timing: {
    prefix_tokens: number;
    prefix_reused: boolean;
    reused_tokens: number;
    copied_tokens: number;
    evaluated_tokens: number;
    cache_hits: number;
  };
};

const TICKET = Array.from({ length: 12 }, (_, i) => `Line ${i}: invoice ${1000 + i} was charged twice.`).join("\n");
const REFUND = { type: "predicate", instructions: "The customer asks for money back." };
const TEAM = { type: "choice", instructions: "Which team?", choices: [{ value: "billing" }, { value: "support" }] };

async function decide(
  adapter: TestAdapter,
  key: string | undefined,
  questions: unknown[] = [REFUND],
  fields: Record<string, unknown> = {},
) {
  const body = {
    model: "gpt-6-luna",
    input: TICKET,
    questions,
    ...(key === undefined ? {} : { prompt_cache_key: key }),
    ...fields,
  };
  const response = await rawRequest(adapter.url, { path: "/v1/decisions", body: JSON.stringify(body) });
  expect(response.status).toBe(200);
  return response.body as Answered;
}

const nothingShared = (answered: Answered) => {
  expect(answered.usage.input_tokens_details.cached_tokens).toBe(0);
  expect(answered.x_timing).toMatchObject({ prefix_reused: false, reused_tokens: 0, cache_hits: 0 });
};

let model: GeneratedModel;
beforeAll(() => {
  model = generateModel("tiny");
});
afterAll(() => model?.cleanup());

/** An adapter on the generated model with these settings for the enclosing describe. */
function servedWith(env: Record<string, string>): () => TestAdapter {
  let adapter: TestAdapter | undefined;
  beforeAll(async () => {
    adapter = await startTestAdapter(model.file, env);
  });
  afterAll(async () => adapter?.close());
  return () => adapter!;
}

describe("prompt_cache_key with serial branches", () => {
  const adapter = servedWith({ ADAPTER_PARALLEL: "4", ADAPTER_BRANCH_SCHEDULE: "serial" });

  it("answers an exact repeat under the same key from the reading cache, its state prefix counted as cached", async () => {
    const first = await decide(adapter(), "tenant-a");
    nothingShared(first);
    const repeat = await decide(adapter(), "tenant-a");
    expect(repeat.x_timing.cache_hits).toBe(1);
    expect(repeat.x_timing.evaluated_tokens).toBe(0);
    expect(repeat.usage.input_tokens_details.cached_tokens).toBe(first.x_timing.prefix_tokens);
    expect(repeat.answers).toEqual(first.answers);
  });

  it("shares no cached reading and no evaluated state with the same request under another key", async () => {
    const keyed = await decide(adapter(), "tenant-a");
    const other = await decide(adapter(), "tenant-b");
    nothingShared(other);
    expect(other.x_timing.evaluated_tokens).toBeGreaterThan(keyed.x_timing.prefix_tokens);
    expect(other.answers).toEqual(keyed.answers);
  });

  it("keeps requests without a key apart from keyed ones", async () => {
    const unkeyed = await decide(adapter(), undefined);
    expect(unkeyed.usage.input_tokens_details.cached_tokens).toBe(0);
    expect(unkeyed.x_timing).toMatchObject({ prefix_reused: false, cache_hits: 0 });
    // Only the opening of the start-up decision's prompt (no key either) is kept; the keyed sequences hold all of it.
    expect(unkeyed.x_timing.reused_tokens).toBeLessThan(unkeyed.x_timing.prefix_tokens);
    const again = await decide(adapter(), undefined);
    expect(again.x_timing.cache_hits).toBe(1);
  });

  it("reuses the state prefix a key evaluated for a new question under the same key, after other keys ran", async () => {
    await decide(adapter(), "tenant-c");
    const asked = await decide(adapter(), "tenant-a", [TEAM]);
    expect(asked.x_timing.cache_hits).toBe(0);
    expect(asked.x_timing.prefix_reused).toBe(true);
    expect(asked.usage.input_tokens_details.cached_tokens).toBe(asked.x_timing.prefix_tokens);
    expect(asked.x_timing.prefix_tokens).toBeGreaterThan(0);
  });

  it("uses no prompt caching in explicit mode without a breakpoint, and caches again once a part marks one", async () => {
    const ticket = (breakpoint: boolean) => [
      {
        role: "user",
        content: [
          {
            type: "input_text",
            text: TICKET,
            ...(breakpoint ? { prompt_cache_breakpoint: { mode: "explicit" } } : {}),
          },
        ],
      },
    ];
    const first = await decide(adapter(), "tenant-d", [REFUND], { input: ticket(false) });
    const explicit = { prompt_cache_options: { mode: "explicit" } };
    const unmarked = await decide(adapter(), "tenant-d", [REFUND], { input: ticket(false), ...explicit });
    nothingShared(unmarked);
    expect(unmarked.answers).toEqual(first.answers);
    const marked = await decide(adapter(), "tenant-d", [REFUND], { input: ticket(true), ...explicit });
    expect(marked.x_timing.cache_hits).toBe(1);
    expect(marked.usage.input_tokens_details.cached_tokens).toBe(marked.x_timing.prefix_tokens);
  });

  it("empties a sequence another key holds before using it, so its state is never read", async () => {
    const alone = await startTestAdapter(model.file, { ADAPTER_PARALLEL: "1", ADAPTER_BRANCH_SCHEDULE: "serial" });
    try {
      nothingShared(await decide(alone, "tenant-a"));
      nothingShared(await decide(alone, "tenant-b"));
      nothingShared(await decide(alone, "tenant-a", [TEAM]));
    } finally {
      await alone.close();
    }
  });
});

describe("prompt_cache_key with branches batched over borrowed sequences", () => {
  const adapter = servedWith({ ADAPTER_PARALLEL: "2", ADAPTER_BRANCH_SCHEDULE: "batched", ADAPTER_READING_CACHE: "0" });

  it("keeps the state both lanes hold for the same key, and reuses none of it under another key", async () => {
    const first = await decide(adapter(), "tenant-a", [REFUND, TEAM]);
    expect(first.x_timing.copied_tokens).toBe(first.x_timing.prefix_tokens);
    const same = await decide(adapter(), "tenant-a", [REFUND, TEAM]);
    expect(same.x_timing.prefix_reused).toBe(true);
    expect(same.x_timing.reused_tokens).toBeGreaterThanOrEqual(2 * same.x_timing.prefix_tokens);
    const other = await decide(adapter(), "tenant-b", [REFUND, TEAM]);
    nothingShared(other);
    expect(other.x_timing.copied_tokens).toBe(other.x_timing.prefix_tokens);
    expect(other.answers).toEqual(first.answers);
  });
});

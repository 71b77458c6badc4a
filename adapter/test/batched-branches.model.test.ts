import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  decision,
  type GeneratedModel,
  generateModel,
  postJson,
  startTestAdapter,
  type TestAdapter,
} from "./support/adapter-harness.ts";
import type { ModelKind } from "./support/llama-model.ts";

/**
 * Suffixes in one batch: after the state prefix's own pass, its state is copied to idle sequences and every
 * decision's suffix (or option order, or systemone question) is evaluated on its own lane, all in one batch.
 * Compared with the serial path (ADAPTER_PARALLEL=1, one branch after another on one sequence): within 1e-3 on a
 * model with attention (batch shapes change float order), exactly equal on the closed-form model, whose logits
 * depend only on the last token. Recurrent models (Mamba; the hybrid is Jamba: Mamba and attention layers, like
 * Qwen3.5's mix of recurrent and attention layers) cannot trim their recurrent state: lanes get it by the same
 * copy (llama.cpp shares the recurrent cell and copies it on write), and trimming back to the state or to a
 * question restores node-llama-cpp checkpoints taken there.
 */

type Result = { id: string; probabilities: number[] };
type Timing = { lanes: number; copied_tokens: number; evaluated_tokens: number; prefix_tokens: number };

const QUESTIONS = [
  "Is the export allowed?",
  "Should support escalate?",
  "Is this a billing issue?",
  "Reply now?",
  "Is the customer on the trial plan?",
  "Does the ticket mention a refund?",
];
const STATE = "Ticket: the customer cannot export a PDF on the trial plan, three days before the trial ends.";
const OPTIONS = [
  { id: "yes", description: "Yes." },
  { id: "no", description: "No." },
  { id: "unsure", description: "Cannot tell." },
];
const shared = QUESTIONS.map((question, index) =>
  decision({ id: `q${index}`, state: STATE, question, options: OPTIONS }),
);

const maxDifference = (a: Result[], b: Result[]) =>
  Math.max(...a.flatMap((result, i) => result.probabilities.map((p, k) => Math.abs(p - b[i]!.probabilities[k]!))));

async function scoreShared(adapter: TestAdapter, body: unknown) {
  const response = await postJson(adapter.url, body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { results: Result[]; timing: Timing };
}

/**
 * Two adapters with `parallel` sequences on the same generated model (cache off): one batching branches over lanes,
 * one on the CPU default schedule (serial: no lanes lent).
 */
function lanesAndSerial(kind: ModelKind, parallel: number, env: Record<string, string>) {
  let model: GeneratedModel;
  let adapters: { lanes: TestAdapter; serial: TestAdapter };
  beforeAll(async () => {
    model = generateModel(kind);
    const settings = { ...env, ADAPTER_READING_CACHE: "0" };
    adapters = {
      lanes: await startTestAdapter(model.file, {
        ...settings,
        ADAPTER_PARALLEL: String(parallel),
        ADAPTER_BRANCH_SCHEDULE: "batched",
      }),
      // The CPU default schedule: as many sequences, none lent, every branch on the request's own sequence.
      serial: await startTestAdapter(model.file, { ...settings, ADAPTER_PARALLEL: String(parallel) }),
    };
  });
  afterAll(async () => {
    await adapters?.lanes.close();
    await adapters?.serial.close();
    model?.cleanup();
  });
  return () => adapters;
}

for (const kind of ["tiny", "closed-form", "tiny-mamba", "tiny-hybrid"] as const) {
  describe(`${kind} model: shared decisions on lanes against the serial path`, () => {
    const pair = lanesAndSerial(kind, 8, { SEMIF_MAX_TOKENS: "1024" });
    let lanes: TestAdapter;
    let serial: TestAdapter;
    beforeAll(() => {
      ({ lanes, serial } = pair());
    });

    it("evaluates the state once, copies it to a lane per further decision, and agrees with the serial path", async () => {
      const batched = await scoreShared(lanes, { decisions: shared });
      const alone = await scoreShared(serial, { decisions: shared });
      expect(batched.timing.lanes).toBe(shared.length);
      expect(batched.timing.copied_tokens).toBe((shared.length - 1) * batched.timing.prefix_tokens);
      expect(alone.timing.lanes).toBe(1);
      expect(alone.timing.copied_tokens).toBe(0);
      // The serial path keeps the common start of consecutive suffixes ("Question:"); lanes start at the state.
      expect(alone.timing.evaluated_tokens).toBeLessThanOrEqual(batched.timing.evaluated_tokens);
      const difference = maxDifference(batched.results, alone.results);
      if (kind === "closed-form") expect(difference).toBe(0);
      else expect(difference).toBeLessThan(1e-3);
    });

    it("batches option orders (permutations) the same way", async () => {
      const body = { decisions: shared.slice(0, 2), permutations: 3 };
      const batched = await scoreShared(lanes, body);
      const alone = await scoreShared(serial, body);
      expect(batched.timing.lanes).toBe(6);
      const difference = maxDifference(batched.results, alone.results);
      if (kind === "closed-form") expect(difference).toBe(0);
      else expect(difference).toBeLessThan(1e-3);
    });

    it("runs more branches than sequences in rounds, trimming each lane back to the state", async () => {
      const many = { decisions: shared, permutations: 3 };
      const batched = await scoreShared(lanes, many);
      const alone = await scoreShared(serial, many);
      expect(batched.timing.lanes).toBe(8);
      const difference = maxDifference(batched.results, alone.results);
      if (kind === "closed-form") expect(difference).toBe(0);
      else expect(difference).toBeLessThan(1e-3);
    });

    it("scores systemone questions on lanes", async () => {
      const body = {
        model: "jev-latest",
        state: STATE,
        questions: Object.fromEntries(
          QUESTIONS.slice(0, 4).map((question, index) => [`q${index}`, { type: "noul", instructions: question }]),
        ),
      };
      const batched = await postJson(lanes.url, body);
      const alone = await postJson(serial.url, body);
      const a = batched.body as { answers: Record<string, { noul: number }>; x_timing: Timing };
      const b = alone.body as { answers: Record<string, { noul: number }>; x_timing: Timing };
      expect(a.x_timing.lanes).toBe(4);
      expect(b.x_timing.lanes).toBe(1);
      for (const id of Object.keys(a.answers)) {
        const difference = Math.abs(a.answers[id]!.noul - b.answers[id]!.noul);
        if (kind === "closed-form") expect(difference).toBe(0);
        else expect(difference).toBeLessThan(1e-3);
      }
    });
  });
}

describe.each(["tiny-mamba", "tiny-hybrid"] as const)("%s (recurrent state): two-letter codes and reuse", (kind) => {
  const pair = lanesAndSerial(kind, 4, { SEMIF_MAX_TOKENS: "2048", SEMIF_MAX_REQUEST_TOKENS: "8192" });
  let lanes: TestAdapter;
  let serial: TestAdapter;
  beforeAll(() => {
    ({ lanes, serial } = pair());
  });
  const many = Array.from({ length: 40 }, (_, i) => ({ id: `route-${i}`, description: `Route ${i}` }));

  it("scores 40-option decisions (a continuation per first letter) on lanes as on one sequence", async () => {
    const body = {
      decisions: QUESTIONS.slice(0, 3).map((question, index) =>
        decision({ id: `m${index}`, state: STATE, question, options: many }),
      ),
    };
    const batched = await scoreShared(lanes, body);
    const alone = await scoreShared(serial, body);
    expect(batched.timing.lanes).toBe(3);
    expect(maxDifference(batched.results, alone.results)).toBeLessThan(1e-3);
  });

  it("keeps the state across requests and answers as a cold request does", async () => {
    const body = { decisions: shared.slice(0, 3) };
    await scoreShared(serial, { decision: decision({ state: "Another state." }) });
    const cold = await scoreShared(serial, body);
    const warm = await scoreShared(serial, { decisions: shared.slice(3, 6) });
    const again = await scoreShared(serial, body);
    expect(warm.timing).toMatchObject({ lanes: 1 });
    expect((warm as unknown as { timing: { prefix_reused: boolean } }).timing.prefix_reused).toBe(true);
    expect(maxDifference(again.results, cold.results)).toBeLessThan(1e-3);
  });
});

describe("busy sequences", () => {
  let model: GeneratedModel;
  let adapter: TestAdapter;

  beforeAll(async () => {
    model = generateModel("tiny");
    adapter = await startTestAdapter(model.file, {
      SEMIF_MAX_TOKENS: "1024",
      ADAPTER_PARALLEL: "3",
      ADAPTER_BRANCH_SCHEDULE: "batched",
      SEMIF_MAX_IN_FLIGHT: "3",
      ADAPTER_READING_CACHE: "0",
    });
  });
  afterAll(async () => {
    await adapter?.close();
    model?.cleanup();
  });

  /** Holds `count` sequences as long-running requests would, until released. */
  function hold(count: number) {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    for (let i = 0; i < count; i++) void adapter.engine.pool.lease([], () => released);
    return release;
  }

  it("uses the sequences that are idle and never waits for the others", async () => {
    const reference = await scoreShared(adapter, { decisions: shared });
    expect(reference.timing.lanes).toBe(3);
    const release = hold(1);
    try {
      const partly = await scoreShared(adapter, { decisions: shared });
      expect(partly.timing.lanes).toBe(2);
      expect(maxDifference(partly.results, reference.results)).toBeLessThan(1e-3);
    } finally {
      release();
    }
  });

  it("falls back to the serial path when every other sequence is busy", async () => {
    const reference = await scoreShared(adapter, { decisions: shared });
    const release = hold(2);
    try {
      const started = performance.now();
      const serial = await scoreShared(adapter, { decisions: shared });
      expect(serial.timing.lanes).toBe(1);
      expect(serial.timing.copied_tokens).toBe(0);
      expect(maxDifference(serial.results, reference.results)).toBeLessThan(1e-3);
      expect(performance.now() - started).toBeLessThan(20_000);
    } finally {
      release();
    }
  });
});

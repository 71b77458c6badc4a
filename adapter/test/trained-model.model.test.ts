import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trainedModel } from "../../scripts/models/trained-model.ts";
import { postJson, startTestAdapter, type TestAdapter } from "./support/adapter-harness.ts";
import {
  highestIndex,
  rotations,
  STATED_ANSWERS,
  type StatedDecision,
  type StatedResult,
  statedRequest,
} from "./support/stated-answers.ts";

/**
 * What a trained model (SmolLM2-135M-Instruct Q4_1, `npm run models:fetch`) does through the adapter's decision
 * API with its own chat template. The figures asserted were measured on this fixed set first (docs/decision-
 * quality.md); each assertion leaves a margin around what was measured. What the console's calibration and
 * temperature code make of these answers is tests/integration/trained-model-calibration.model.test.ts.
 */

const model = trainedModel();
if (!model.path) console.warn(`skipping the trained-model tests: ${model.skipReason}`);

function probabilityOf(result: StatedResult, id: string): number {
  return result.probabilities[result.option_ids.indexOf(id)]!;
}

function ranksFirst(result: StatedResult, id: string): boolean {
  return result.option_ids[highestIndex(result.probabilities)] === id;
}

describe.skipIf(!model.path)("a trained model through the decision API (SmolLM2-135M-Instruct)", () => {
  let adapter: TestAdapter;
  /** Each stated decision in each of its three option orders, as sent (the first order is the set's own). */
  const asSent = new Map<string, StatedResult>();
  /** Each stated decision with all three orders averaged (`permutations: 3`). */
  const debiased = new Map<string, StatedResult>();

  const decide = async (decision: StatedDecision, permutations?: number): Promise<StatedResult> => {
    const response = await postJson(adapter.url, {
      decision: statedRequest(decision),
      ...(permutations ? { permutations } : {}),
    });
    expect(response.status).toBe(200);
    return (response.body as { result: StatedResult }).result;
  };

  beforeAll(async () => {
    adapter = await startTestAdapter(model.path!, {
      ADAPTER_THREADS: "2",
      ADAPTER_PARALLEL: "3",
      SEMIF_MAX_TOKENS: "1024",
    });
    for (const decision of STATED_ANSWERS.flatMap(rotations)) asSent.set(decision.id, await decide(decision));
    // Its three orders were just scored, so these come from the reading cache: the same readings, averaged.
    for (const decision of STATED_ANSWERS) debiased.set(decision.id, await decide(decision, 3));
    if (process.env.TRAINED_MODEL_MEASURE) {
      for (const [id, result] of [
        ...asSent,
        ...[...debiased].map(([key, value]) => [`${key} (debiased)`, value] as const),
      ]) {
        console.log(id, result.option_ids.join(","), result.probabilities.map((p) => p.toFixed(4)).join(" "));
      }
    }
  }, 600_000);
  afterAll(async () => {
    await adapter?.close();
  });

  it("answers with probabilities that sum to 1, in the order the options were sent", () => {
    for (const decision of STATED_ANSWERS.flatMap(rotations)) {
      const result = asSent.get(decision.id)!;
      expect(result.option_ids).toEqual(decision.options.map((option) => option.id));
      expect(result.probabilities.reduce((sum, p) => sum + p, 0)).toBeCloseTo(1, 9);
    }
  });

  it("gives every option the same debiased probability whichever cyclic order it was sent in", async () => {
    for (const decision of STATED_ANSWERS) {
      const reference = debiased.get(decision.id)!;
      for (const rotated of rotations(decision).slice(1)) {
        const result = await decide(rotated, 3);
        expect(result.option_ids).toEqual(rotated.options.map((option) => option.id));
        for (const option of decision.options) {
          expect(probabilityOf(result, option.id)).toBeCloseTo(probabilityOf(reference, option.id), 6);
        }
      }
    }
  });

  it("does not rank a stated answer first: it answers by position (measured: B in 16 of 18, stated first in 5 of 18, 0 of 6 debiased)", () => {
    // Measured on this set: the model picks position B in 16 of the 18 orders and the stated option only where it
    // sits at B (5 of 18, below chance's 6); averaged over the three orders the stated option is first in none of
    // the 6 decisions. The expectation (the stated option ranks first) does not hold for this model.
    const orders = STATED_ANSWERS.flatMap(rotations);
    const atB = orders.filter((decision) => highestIndex(asSent.get(decision.id)!.probabilities) === 1).length;
    const statedFirst = orders.filter((decision) => ranksFirst(asSent.get(decision.id)!, decision.answer)).length;
    const debiasedFirst = STATED_ANSWERS.filter((decision) => ranksFirst(debiased.get(decision.id)!, decision.answer));
    expect(atB).toBeGreaterThanOrEqual(14);
    expect(statedFirst).toBeLessThanOrEqual(7);
    expect(debiasedFirst.length).toBeLessThanOrEqual(1);
  });

  it("debiases by averaging the three orders, which moves each answer by 0.05 to 0.30 (measured 0.075 to 0.271)", () => {
    for (const decision of STATED_ANSWERS) {
      const averaged = debiased.get(decision.id)!;
      const sent = asSent.get(`${decision.id}-0`)!;
      const orders = rotations(decision).map((rotated) => asSent.get(rotated.id)!);
      for (const option of decision.options) {
        const mean = orders.reduce((sum, result) => sum + probabilityOf(result, option.id), 0) / orders.length;
        expect(probabilityOf(averaged, option.id)).toBeCloseTo(mean, 9);
      }
      const moved = Math.max(
        ...decision.options.map((o) => Math.abs(probabilityOf(averaged, o.id) - probabilityOf(sent, o.id))),
      );
      expect(moved).toBeGreaterThanOrEqual(0.05);
      expect(moved).toBeLessThanOrEqual(0.3);
    }
  });
});

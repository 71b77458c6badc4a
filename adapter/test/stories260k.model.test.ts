import type { Token } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scoreBranches } from "../src/engine/branch-scoring.ts";
import { decision, postJson, sharedPath, startTestAdapter, type TestAdapter } from "./support/adapter-harness.ts";

const fixture = sharedPath("fixtures/models/stories260K.gguf");

// Values from ../shared/fixtures/models/README.md (node-llama-cpp 3.22.1, CPU): token -> [p without flash
// attention, p with the default]. The two columns differ in the 4th digit, so a 1e-3 tolerance covers both.
const REFERENCE: Array<[number, number, number]> = [
  [298, 0.640128, 0.639992],
  [268, 0.27549, 0.275592],
  [400, 0.0214564, 0.0214837],
  [280, 0.0119508, 0.0119486],
];

describe.skipIf(!fixture)(
  `stories260K fixture${fixture ? "" : " (skipped: ../shared/fixtures is not beside this checkout)"}`,
  () => {
    let adapter: TestAdapter;

    beforeAll(async () => {
      adapter = await startTestAdapter(fixture!, { SEMIF_MAX_TOKENS: "1024" });
    });

    afterAll(async () => {
      await adapter?.close();
    });

    it("reproduces the README's next-token probabilities through the scoring engine", async () => {
      const model = adapter.engine.loaded.model;
      const tokens = model.tokenize("Once upon a time, there was a little");
      const ids = REFERENCE.map(([id]) => id as Token);
      const scores = await adapter.engine.pool.lease([model.tokens.bos!], (sequence) =>
        scoreBranches(
          sequence,
          [model.tokens.bos!],
          [{ suffix: tokens, readings: [{ index: tokens.length - 1, tokens: ids }] }],
          {
            reusePrefix: false,
          },
        ),
      );
      const reading = scores.branches[0]!.readings[0]!;
      expect(reading.argmaxToken).toBe(298);
      for (const [index, [, withoutFlash, withDefault]] of REFERENCE.entries()) {
        const probability = Math.exp(reading.logits[index]! - reading.logZ);
        expect(Math.min(Math.abs(probability - withoutFlash), Math.abs(probability - withDefault))).toBeLessThan(1e-3);
      }
    });

    it("scores a decision with the fallback template (the GGUF has no chat template)", async () => {
      const response = await postJson(adapter.url, { decision: decision() });
      expect(response.status).toBe(200);
      const result = (
        response.body as {
          result: { probabilities: number[]; allowed_token_mass: number; model: { chat_template: string } };
        }
      ).result;
      expect(result.model.chat_template).toBe("fallback");
      expect(result.probabilities.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
      expect(result.allowed_token_mass).toBeGreaterThan(0);
    });

    it("refuses an over-long prompt with 400", async () => {
      const response = await postJson(adapter.url, { decision: decision({ state: "Once upon a time ".repeat(400) }) });
      expect(response.status).toBe(400);
      expect((response.body as { error: string }).error).toMatch(/^decisions exceeds the request token budget/);
    });
  },
);

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import {
  getLlama,
  type Llama,
  type LlamaContext,
  LlamaContextSequence,
  type LlamaModel,
  type Token,
} from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertSequenceCopyAvailable, copySequencePrefix } from "../src/engine/sequence-copy.ts";
import { type GeneratedModel, generateModel } from "./support/adapter-harness.ts";

/**
 * `src/engine/sequence-copy.ts` relies on node-llama-cpp internals (`_copyStateFromOtherSequence` and the addon's
 * `copySequenceStateFromOtherSequence`). The adapter pins node-llama-cpp exactly; these tests fail loudly when the
 * pinned version or the internals change, and check that a copied state scores exactly like an evaluated one.
 */

const PINNED = "3.22.1";
const require = createRequire(import.meta.url);

describe("node-llama-cpp internals used for sequence copies", () => {
  it(`is node-llama-cpp ${PINNED}, the version the wrapper was written against`, () => {
    const manifest = path.join(path.dirname(require.resolve("node-llama-cpp")), "..", "package.json");
    expect(JSON.parse(readFileSync(manifest, "utf8")).version).toBe(PINNED);
    const adapterManifest = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    expect(adapterManifest.dependencies["node-llama-cpp"]).toBe(PINNED);
  });

  it("has _copyStateFromOtherSequence calling the addon's copySequenceStateFromOtherSequence", () => {
    const method = (LlamaContextSequence.prototype as unknown as Record<string, unknown>)._copyStateFromOtherSequence;
    expect(typeof method).toBe("function");
    const source = String(method);
    // What the wrapper depends on: the addon call, the token list and checkpoints copied, the tail erased.
    expect(source).toContain("copySequenceStateFromOtherSequence(this._sequenceId, otherSequence._sequenceId)");
    expect(source).toContain("this._contextTokens = otherSequence._contextTokens.slice(0)");
    expect(source).toContain("cloneCheckpointsStateFrom(otherSequence._checkpoints)");
    expect(source).toContain("_eraseContextTokenRanges([{ start: upToTokenIndex, end: this._nextTokenIndex }])");
  });
});

describe("copying a sequence's state", () => {
  let generated: GeneratedModel;
  let llama: Llama;
  let model: LlamaModel;
  let context: LlamaContext;

  beforeAll(async () => {
    generated = generateModel("tiny");
    llama = await getLlama({ build: "never", gpu: false });
    model = await llama.loadModel({ modelPath: generated.file, gpuLayers: 0 });
    context = await model.createContext({ contextSize: 512, sequences: 3, threads: 1 });
  });
  afterAll(async () => {
    await context?.dispose();
    await model?.dispose();
    await llama?.dispose();
    generated?.cleanup();
  });

  async function nextLogits(sequence: LlamaContextSequence, tokens: readonly Token[]): Promise<number[]> {
    const last = tokens.length - 1;
    const output = await sequence.controlledEvaluate(
      tokens.map((token, index) =>
        index === last ? [token, { generateNext: { probabilities: true } }] : token,
      ) as Parameters<LlamaContextSequence["controlledEvaluate"]>[0],
    );
    return [...output[last]!.next!.probabilities!.values()];
  }

  it("gives the target the source's prefix, which then scores exactly as one evaluated in place", async () => {
    const prefix = model.tokenize("The customer reports a duplicate charge on the invoice", true);
    const suffix = model.tokenize(" and asks for a refund", true);
    const source = context.getSequence();
    const target = context.getSequence();
    const reference = context.getSequence();
    assertSequenceCopyAvailable(target);
    await source.evaluateWithoutGeneratingNewTokens(prefix);
    await source.evaluateWithoutGeneratingNewTokens(suffix.slice(0, 2));

    expect(await copySequencePrefix(target, source, prefix.length)).toBe(true);
    expect(target.contextTokens).toEqual(prefix);
    expect(source.contextTokens).toEqual([...prefix, ...suffix.slice(0, 2)]);

    await reference.evaluateWithoutGeneratingNewTokens(prefix);
    const copied = await nextLogits(target, suffix);
    const evaluated = await nextLogits(reference, suffix);
    expect(copied).toEqual(evaluated);
    for (const sequence of [source, target, reference]) sequence.dispose();
  });

  it("refuses to copy more tokens than the source holds", async () => {
    const source = context.getSequence();
    const target = context.getSequence();
    await source.evaluateWithoutGeneratingNewTokens(model.tokenize("Short", true));
    await expect(copySequencePrefix(target, source, 10)).rejects.toThrow(/fewer tokens/);
    source.dispose();
    target.dispose();
  });
});

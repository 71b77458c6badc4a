import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { TensorType } from "./gguf-writer.ts";
import { MODEL_KINDS, type ModelKind, modelSpec, writeModel } from "./llama-model.ts";

/**
 * npm run make-model -w adapter -- --kind tiny|closed-form|medium|bench-0.5b|tiny-bpe|tiny-mamba --out <file>
 *   [--type F32|F16|Q8_0]
 *   [--words <text file whose words become whole-word tokens>]
 *   [--context <training context length in tokens>]
 */

const TYPES: readonly TensorType[] = ["F32", "F16", "Q8_0"];

const { values } = parseArgs({
  options: {
    kind: { type: "string" },
    out: { type: "string" },
    type: { type: "string" },
    words: { type: "string" },
    context: { type: "string" },
  },
});
const kind = values.kind as ModelKind;
if (!MODEL_KINDS.includes(kind) || !values.out) {
  process.stderr.write(`usage: make-model --kind ${MODEL_KINDS.join("|")} --out <file.gguf> [--type F32|F16|Q8_0]\n`);
  process.exit(2);
}
if (values.type !== undefined && !TYPES.includes(values.type as TensorType)) {
  process.stderr.write(`--type must be one of ${TYPES.join(", ")}\n`);
  process.exit(2);
}
// npm runs workspace scripts inside adapter/: resolve paths from where the command was typed.
const fromCaller = (file: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
const contextLength = values.context === undefined ? undefined : Number(values.context);
if (contextLength !== undefined && !(Number.isInteger(contextLength) && contextLength >= 64)) {
  process.stderr.write("--context must be an integer of at least 64 tokens\n");
  process.exit(2);
}
const out = fromCaller(values.out);
const started = performance.now();
const spec = modelSpec(kind, {
  weightType: values.type as TensorType | undefined,
  extraText: values.words ? readFileSync(fromCaller(values.words), "utf8") : undefined,
  contextLength,
});
mkdirSync(path.dirname(out), { recursive: true });
writeModel(spec, out);
process.stdout.write(
  `${JSON.stringify({ kind, out, vocabulary: spec.vocabulary.tokens.length, seconds: (performance.now() - started) / 1000 })}\n`,
);

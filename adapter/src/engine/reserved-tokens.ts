import type { LlamaModel } from "node-llama-cpp";

const CONTROL = 3;
const USER_DEFINED = 4;
const MARKUP = /^[<[].*[>\]]$/s;

/**
 * Texts that would change the prompt's structure if a client could send them: every control token of the
 * vocabulary (`<|im_start|>`, `<s>`...), and user-defined tokens that look like markup (`<think>`), which
 * llama.cpp matches even with special-token parsing off. Longest first, so the first hit is the most specific.
 */
export function reservedTokenTexts(model: LlamaModel): string[] {
  const ggml = model.fileInfo.metadata.tokenizer.ggml as { tokens?: readonly string[]; token_type?: readonly number[] };
  const tokens = ggml?.tokens ?? [];
  const types = ggml?.token_type ?? [];
  const reserved = new Set<string>();
  for (const [id, text] of tokens.entries()) {
    if (text.length < 2) continue;
    const type = types[id];
    if (type === CONTROL || (type === USER_DEFINED && MARKUP.test(text))) reserved.add(text);
  }
  return [...reserved].sort((a, b) => b.length - a.length || a.localeCompare(b));
}

/** The first reserved text found in any string of the value, object keys included. */
export function findReservedToken(value: unknown, reserved: readonly string[]): string | null {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === "string") {
      const hit = reserved.find((text) => current.includes(text));
      if (hit !== undefined) return hit;
    } else if (Array.isArray(current)) {
      pending.push(...current);
    } else if (typeof current === "object" && current !== null) {
      for (const [key, nested] of Object.entries(current)) pending.push(key, nested);
    }
  }
  return null;
}

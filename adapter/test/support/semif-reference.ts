import { renderState } from "../../src/contract/decision.ts";

/**
 * SemIf's request checks written out step by step, as the adapter ran them before its zod schemas became the one
 * validator (DESIGN §4 order and messages). Kept only as the reference the schemas are compared with.
 */
export type ReferenceResult = { ok: true; decisions: unknown[] } | { ok: false; message: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const nonEmpty = (value: unknown): value is string => typeof value === "string" && value.length > 0;

function deeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (limit === 0) return true;
  return Object.values(value).some((nested) => deeperThan(nested, limit - 1));
}

function checkDecision(raw: Record<string, unknown>, path: string): string | Record<string, unknown> {
  if (!nonEmpty(raw.id) || !nonEmpty(raw.question)) return `id and question must be nonempty strings: ${path}`;
  const state = raw.state;
  if (typeof state !== "string" && (typeof state !== "object" || state === null)) {
    return `state must be a string or a JSON object or array: ${path}.state`;
  }
  if (deeperThan(state, 64)) return `state is nested more than 64 levels deep: ${path}.state`;
  const options = raw.options;
  if (!Array.isArray(options) || options.length < 2 || options.length > 255) {
    return `options must contain 2-255 entries: ${path}.options`;
  }
  const seen = new Set<string>();
  const checked = [];
  for (const [index, option] of options.entries()) {
    const at = `${path}.options[${index}]`;
    if (!isObject(option) || !nonEmpty(option.id))
      return `each option must be an object with a nonempty string id: ${at}`;
    if (option.description !== undefined && typeof option.description !== "string") {
      return `option description must be a string: ${at}.description`;
    }
    if (seen.has(option.id)) return `Option IDs must be unique: ${at}.id`;
    seen.add(option.id);
    checked.push({ id: option.id, description: option.description ?? "" });
  }
  return { id: raw.id, state, question: raw.question, options: checked };
}

export function referenceCheck(payload: unknown, maxShared: number): ReferenceResult {
  const fail = (message: string): ReferenceResult => ({ ok: false, message });
  if (!isObject(payload)) return fail("Request body must be a JSON object");
  const unsupported = Object.keys(payload)
    .filter((key) => !["decision", "decisions", "permutations"].includes(key))
    .sort();
  if (unsupported.length > 0)
    return fail(`Unsupported request fields: [${unsupported.map((k) => `'${k}'`).join(", ")}]`);
  const p = payload.permutations;
  if (p !== undefined && (typeof p !== "number" || !Number.isInteger(p) || p < 1 || p > 16)) {
    return fail("permutations must be an integer from 1 to 16");
  }
  if ("decision" in payload === "decisions" in payload) {
    return fail("Request must contain exactly one of decision or decisions");
  }
  let raws: Record<string, unknown>[];
  let shared: boolean;
  if ("decision" in payload) {
    if (!isObject(payload.decision)) return fail("Request must contain one decision object");
    raws = [payload.decision];
    shared = false;
  } else {
    const list = payload.decisions;
    if (!Array.isArray(list) || list.length === 0) return fail("Request must contain a nonempty decisions list");
    if (list.length > maxShared) return fail(`decisions supports at most ${maxShared} items`);
    if (!list.every(isObject)) return fail("decisions must contain only decision objects");
    raws = list;
    shared = true;
  }
  const decisions = [];
  for (const [index, raw] of raws.entries()) {
    const checked = checkDecision(raw, shared ? `decisions[${index}]` : "decision");
    if (typeof checked === "string") return fail(checked);
    decisions.push(checked);
  }
  if (shared) {
    const states = decisions.map((decision) => renderState(decision.state as string));
    if (states[0] === "" || states.some((state) => state !== states[0])) {
      return fail("Shared scoring requires one nonempty exact state");
    }
    if (new Set(decisions.map((decision) => decision.id)).size !== decisions.length) {
      return fail("Decision IDs must be unique");
    }
  }
  return { ok: true, decisions };
}

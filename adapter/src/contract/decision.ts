import { z } from "zod";
import { modelMetadataSchema, timingSchema } from "./common.ts";

/**
 * The decision API (DESIGN §4), SemIf-compatible. The zod schemas give the types and let the console validate
 * what it sends; the adapter itself checks requests with `parseDecisionEnvelope` and `checkDecisions`, whose
 * messages are SemIf's exact 400 messages (client parity), which zod's own messages would not be.
 */

export const DECISION_REQUEST_FIELDS = ["decision", "decisions"] as const;
/** Beyond SemIf: score this many cyclic option orders and average them (1 = as sent; see adapter README). */
export const PERMUTATIONS_FIELD = "permutations";
export const MIN_OPTIONS = 2;
/** Up to 26 options are labelled A-Z, more get two-letter codes (DESIGN §4 "Beyond SemIf"; see adapter README). */
export const MAX_OPTIONS = 255;
export const MAX_PERMUTATIONS = 16;
export const ANSWER_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
export const MAX_STATE_DEPTH = 64;

export const decisionOptionSchema = z.object({
  id: z.string().min(1),
  description: z.string(),
});
export type DecisionOption = z.infer<typeof decisionOptionSchema>;

/** A string, or a JSON object/array that the adapter renders as canonical JSON (sorted keys). */
export const decisionStateSchema = z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]);
export type DecisionState = z.infer<typeof decisionStateSchema>;

export const decisionSchema = z.object({
  id: z.string().min(1),
  state: decisionStateSchema,
  question: z.string().min(1),
  options: z.array(decisionOptionSchema).min(MIN_OPTIONS).max(MAX_OPTIONS),
});
export type Decision = z.infer<typeof decisionSchema>;

export const decisionRequestSchema = z.union([
  z.strictObject({ decision: decisionSchema, permutations: z.number().int().min(1).max(MAX_PERMUTATIONS).optional() }),
  z.strictObject({
    decisions: z.array(decisionSchema).min(1),
    permutations: z.number().int().min(1).max(MAX_PERMUTATIONS).optional(),
  }),
]);
export type DecisionRequest = z.infer<typeof decisionRequestSchema>;

/**
 * With up to 26 options each is labelled by one letter token read at the prompt's last position: `option_logits`
 * are those tokens' raw logits, `answer_token_ids` the letter tokens, `allowed_token_mass` the full-vocabulary
 * probability of the letters. With more, labels are two-letter codes of one or more tokens: `option_logits` are
 * each code's summed token log-probabilities (softmax of them gives the same `probabilities`),
 * `answer_token_ids` is empty and `answer_code_token_ids` holds each code's tokens, `allowed_token_mass` is the
 * full-vocabulary probability of the whole code set. `full_vocab_argmax_id` is always the most probable token
 * where the (first) label token comes.
 */
export const decisionResultSchema = z.object({
  id: z.string(),
  option_ids: z.array(z.string()),
  probabilities: z.array(z.number()),
  option_logits: z.array(z.number()),
  answer_token_ids: z.array(z.number().int()),
  answer_code_token_ids: z.array(z.array(z.number().int())).optional(),
  allowed_token_mass: z.number(),
  full_vocab_argmax_id: z.number().int(),
  input_tokens: z.number().int(),
  prompt_sha256: z.string(),
  prompt_version: z.string(),
  temperature: z.number(),
  forward_seconds: z.number(),
  /** Present when the request asked for more than one option order: orders scored, per-option max - min. */
  permutations: z.number().int().optional(),
  spread: z.array(z.number()).optional(),
  model: modelMetadataSchema,
});
export type DecisionResult = z.infer<typeof decisionResultSchema>;

export const singleDecisionResponseSchema = z.object({ result: decisionResultSchema, timing: timingSchema });
export const sharedDecisionResponseSchema = z.object({ results: z.array(decisionResultSchema), timing: timingSchema });
export const decisionResponseSchema = z.union([singleDecisionResponseSchema, sharedDecisionResponseSchema]);
export type SingleDecisionResponse = z.infer<typeof singleDecisionResponseSchema>;
export type SharedDecisionResponse = z.infer<typeof sharedDecisionResponseSchema>;
export type DecisionResponse = z.infer<typeof decisionResponseSchema>;

export type DecisionEnvelope = ({ mode: "single"; decisions: [unknown] } | { mode: "shared"; decisions: unknown[] }) & {
  permutations?: number;
};
export type CheckResult<T> = { ok: true; value: T } | { ok: false; message: string };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

/** The request-level shape, in SemIf's order. Decision fields are checked later by `checkDecisions`. */
export function parseDecisionEnvelope(payload: unknown, maxSharedDecisions: number): CheckResult<DecisionEnvelope> {
  if (!isPlainObject(payload)) return fail("Request body must be a JSON object");
  const allowed: readonly string[] = [...DECISION_REQUEST_FIELDS, PERMUTATIONS_FIELD];
  const unsupported = Object.keys(payload)
    .filter((key) => !allowed.includes(key))
    .sort();
  if (unsupported.length > 0) {
    return fail(`Unsupported request fields: [${unsupported.map((key) => `'${key}'`).join(", ")}]`);
  }
  const permutations = payload[PERMUTATIONS_FIELD];
  if (
    permutations !== undefined &&
    (typeof permutations !== "number" ||
      !Number.isInteger(permutations) ||
      permutations < 1 ||
      permutations > MAX_PERMUTATIONS)
  ) {
    return fail(`permutations must be an integer from 1 to ${MAX_PERMUTATIONS}`);
  }
  const order = permutations === undefined ? {} : { permutations };
  const supplied = DECISION_REQUEST_FIELDS.filter((name) => name in payload);
  if (supplied.length !== 1) return fail("Request must contain exactly one of decision or decisions");
  if (supplied[0] === "decision") {
    if (!isPlainObject(payload.decision)) return fail("Request must contain one decision object");
    return { ok: true, value: { mode: "single", decisions: [payload.decision], ...order } };
  }
  const decisions = payload.decisions;
  if (!Array.isArray(decisions) || decisions.length === 0) {
    return fail("Request must contain a nonempty decisions list");
  }
  if (decisions.length > maxSharedDecisions) return fail(`decisions supports at most ${maxSharedDecisions} items`);
  if (!decisions.every(isPlainObject)) return fail("decisions must contain only decision objects");
  return { ok: true, value: { mode: "shared", decisions, ...order } };
}

/** Canonical text of a state: strings as given, JSON objects/arrays with sorted keys, so equal states render equally. */
export function renderState(state: DecisionState): string {
  if (typeof state === "string") return state;
  return JSON.stringify(sortKeys(state));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (isPlainObject(value)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys(value[key])]),
    );
  }
  return value;
}

/** Nesting depth of a JSON value, computed without recursion so hostile inputs cannot exhaust the stack. */
function nestingDepth(value: unknown): number {
  let deepest = 0;
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current !== "object" || current === null) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > MAX_STATE_DEPTH) return deepest;
    for (const nested of Object.values(current)) pending.push([nested, depth + 1]);
  }
  return deepest;
}

const isNonEmptyString = (value: unknown): value is string => typeof value === "string" && value.length > 0;

function checkDecision(raw: Record<string, unknown>, path: string, maxOptions: number): CheckResult<Decision> {
  if (!isNonEmptyString(raw.id) || !isNonEmptyString(raw.question)) {
    return fail(`id and question must be nonempty strings: ${path}`);
  }
  const state = raw.state;
  if (typeof state !== "string" && (typeof state !== "object" || state === null)) {
    return fail(`state must be a string or a JSON object or array: ${path}.state`);
  }
  if (typeof state === "object" && nestingDepth(state) > MAX_STATE_DEPTH) {
    return fail(`state is nested more than ${MAX_STATE_DEPTH} levels deep: ${path}.state`);
  }
  const options = raw.options;
  if (!Array.isArray(options) || options.length < MIN_OPTIONS || options.length > maxOptions) {
    return fail(`options must contain ${MIN_OPTIONS}-${maxOptions} entries: ${path}.options`);
  }
  const checked: DecisionOption[] = [];
  const seen = new Set<string>();
  for (const [index, option] of options.entries()) {
    const optionPath = `${path}.options[${index}]`;
    if (!isPlainObject(option) || !isNonEmptyString(option.id)) {
      return fail(`each option must be an object with a nonempty string id: ${optionPath}`);
    }
    if (option.description !== undefined && typeof option.description !== "string") {
      return fail(`option description must be a string: ${optionPath}.description`);
    }
    if (seen.has(option.id)) return fail(`Option IDs must be unique: ${optionPath}.id`);
    seen.add(option.id);
    checked.push({ id: option.id, description: option.description ?? "" });
  }
  return {
    ok: true,
    value: { id: raw.id, question: raw.question, state: state as DecisionState, options: checked },
  };
}

/**
 * Decision fields of an accepted envelope. Unknown keys inside a decision are ignored (a labelled dataset row
 * with `answer` or `category` can be sent as is); unknown top-level keys are rejected by the envelope.
 */
export function checkDecisions(envelope: DecisionEnvelope, maxOptions: number = MAX_OPTIONS): CheckResult<Decision[]> {
  const decisions: Decision[] = [];
  for (const [index, raw] of envelope.decisions.entries()) {
    const path = envelope.mode === "single" ? "decision" : `decisions[${index}]`;
    const checked = checkDecision(raw as Record<string, unknown>, path, maxOptions);
    if (!checked.ok) return checked;
    decisions.push(checked.value);
  }
  if (envelope.mode === "shared") {
    const state = renderState(decisions[0]!.state);
    if (state.length === 0 || decisions.some((decision) => renderState(decision.state) !== state)) {
      return fail("Shared scoring requires one nonempty exact state");
    }
    const ids = new Set(decisions.map((decision) => decision.id));
    if (ids.size !== decisions.length) return fail("Decision IDs must be unique");
  }
  return { ok: true, value: decisions };
}

import { z } from "zod";
import { modelMetadataSchema, timingSchema } from "./common.ts";

/**
 * The decision API (DESIGN §4), SemIf-compatible. These schemas are the contract's only validator: they give the
 * types, and they check a request in SemIf's order with SemIf's exact 400 messages (client parity). Request-level
 * messages are SemIf's words alone; a decision field's message ends with its path (`decisions[2].options[1].id`).
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

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isNonEmptyString = (value: unknown): value is string => typeof value === "string" && value.length > 0;

/** SemIf reports the first problem only: a rule runs while nothing before it has failed. */
const afterEarlierRules = { when: (payload: { issues: readonly unknown[] }) => payload.issues.length === 0 };

const OPTION_SHAPE = "each option must be an object with a nonempty string id";

/** An option; `description` may be left out (it is then empty) and other keys are ignored. */
export const decisionOptionSchema = z
  .looseObject({}, { error: OPTION_SHAPE })
  .refine((option) => isNonEmptyString(option.id), OPTION_SHAPE)
  .pipe(
    z.object({
      id: z.string(),
      description: z.string({ error: "option description must be a string" }).default(""),
    }),
  );
export type DecisionOption = z.output<typeof decisionOptionSchema>;

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

type JsonContainer = Record<string, unknown> | unknown[];

/**
 * A string, or a JSON object/array that the adapter renders as canonical JSON (sorted keys). Kept as sent (not
 * copied), so every key of a JSON state reaches the prompt.
 */
export const decisionStateSchema = z
  .union([z.string(), z.custom<JsonContainer>((value) => typeof value === "object" && value !== null)], {
    error: "state must be a string or a JSON object or array",
  })
  .refine(
    (state) => typeof state === "string" || nestingDepth(state) <= MAX_STATE_DEPTH,
    `state is nested more than ${MAX_STATE_DEPTH} levels deep`,
  );
export type DecisionState = z.output<typeof decisionStateSchema>;

/**
 * SemIf checks options one by one, so an id repeated before any malformed option is the problem it reports;
 * the index of that option, or null.
 */
function firstRepeatedOption(options: readonly unknown[]): number | null {
  const seen = new Set<string>();
  for (const [index, option] of options.entries()) {
    const parsed = decisionOptionSchema.safeParse(option);
    if (!parsed.success) return null;
    if (seen.has(parsed.data.id)) return index;
    seen.add(parsed.data.id);
  }
  return null;
}

const OPTION_COUNT = `options must contain ${MIN_OPTIONS}-${MAX_OPTIONS} entries`;

const decisionOptionsSchema = z
  .array(z.unknown(), { error: OPTION_COUNT })
  .min(MIN_OPTIONS, OPTION_COUNT)
  .max(MAX_OPTIONS, OPTION_COUNT)
  .superRefine((options, context) => {
    const repeated = firstRepeatedOption(options);
    if (repeated !== null) {
      context.addIssue({ code: "custom", message: "Option IDs must be unique", path: [repeated, "id"] });
    }
  })
  .pipe(z.array(decisionOptionSchema));

/**
 * One decision's fields. Unknown keys are ignored (a labelled dataset row with `answer` or `category` can be sent
 * as is); unknown top-level keys of a request are refused by the envelope.
 */
export const decisionSchema = z
  .looseObject({}, { error: "must be a decision object" })
  .refine(
    (raw) => isNonEmptyString(raw.id) && isNonEmptyString(raw.question),
    "id and question must be nonempty strings",
  )
  .pipe(
    z.object({
      id: z.string(),
      state: decisionStateSchema,
      question: z.string(),
      options: decisionOptionsSchema,
    }),
  );
export type Decision = z.output<typeof decisionSchema>;

const permutationsSchema = z.number().int().min(1).max(MAX_PERMUTATIONS).optional();

function unsupportedFields(issue: { code?: string; keys?: readonly string[] }): string | undefined {
  if (issue.code !== "unrecognized_keys" || !issue.keys) return undefined;
  return `Unsupported request fields: [${[...issue.keys]
    .sort()
    .map((key) => `'${key}'`)
    .join(", ")}]`;
}

/**
 * The request-level shape, in SemIf's order. Decisions are only checked to be objects here: the adapter looks for
 * reserved tokens in the request as sent before it checks the decision fields (`decisionFieldsSchema`).
 */
function buildEnvelopeSchema(maxSharedDecisions: number) {
  return z
    .custom<Record<string, unknown>>(isPlainObject, "Request body must be a JSON object")
    .pipe(
      z.strictObject(
        {
          decision: z.unknown().optional(),
          decisions: z.unknown().optional(),
          [PERMUTATIONS_FIELD]: z.unknown().optional(),
        },
        { error: unsupportedFields },
      ),
    )
    .refine((body) => permutationsSchema.safeParse(body.permutations).success, {
      message: `permutations must be an integer from 1 to ${MAX_PERMUTATIONS}`,
      ...afterEarlierRules,
    })
    .refine((body) => "decision" in body !== "decisions" in body, {
      message: "Request must contain exactly one of decision or decisions",
      ...afterEarlierRules,
    })
    .refine((body) => !("decision" in body) || isPlainObject(body.decision), {
      message: "Request must contain one decision object",
      ...afterEarlierRules,
    })
    .refine((body) => !("decisions" in body) || (Array.isArray(body.decisions) && body.decisions.length > 0), {
      message: "Request must contain a nonempty decisions list",
      ...afterEarlierRules,
    })
    .refine((body) => !Array.isArray(body.decisions) || body.decisions.length <= maxSharedDecisions, {
      message: `decisions supports at most ${maxSharedDecisions} items`,
      ...afterEarlierRules,
    })
    .refine((body) => !Array.isArray(body.decisions) || body.decisions.every(isPlainObject), {
      message: "decisions must contain only decision objects",
      ...afterEarlierRules,
    })
    .transform((body) => body as DecisionEnvelopeBody);
}

/** Exactly one of `decision` and `decisions` is present. */
const envelopeSchemas = new Map<number, ReturnType<typeof buildEnvelopeSchema>>();

/** Built once per limit: a zod schema costs far more to build than to run. */
export function decisionEnvelopeSchema(maxSharedDecisions: number) {
  let schema = envelopeSchemas.get(maxSharedDecisions);
  if (!schema) {
    schema = buildEnvelopeSchema(maxSharedDecisions);
    envelopeSchemas.set(maxSharedDecisions, schema);
  }
  return schema;
}

type DecisionEnvelopeBody = {
  decision?: Record<string, unknown>;
  decisions?: Record<string, unknown>[];
  permutations?: number;
};

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

function sharesOneState(decisions: readonly Decision[]): boolean {
  const state = renderState(decisions[0]!.state);
  return state.length > 0 && decisions.every((decision) => renderState(decision.state) === state);
}

/** The decision fields of an accepted envelope; shared decisions must also share one state and have unique ids. */
export const decisionFieldsSchema = z
  .object({
    decision: decisionSchema.optional(),
    decisions: z.array(decisionSchema).optional(),
    [PERMUTATIONS_FIELD]: permutationsSchema,
  })
  .refine((body) => body.decisions === undefined || sharesOneState(body.decisions), {
    message: "Shared scoring requires one nonempty exact state",
    ...afterEarlierRules,
  })
  .refine(
    (body) => body.decisions === undefined || new Set(body.decisions.map((d) => d.id)).size === body.decisions.length,
    { message: "Decision IDs must be unique", ...afterEarlierRules },
  )
  .transform(
    (body): DecisionRequest =>
      body.decisions === undefined
        ? { decision: body.decision!, ...permutationsOf(body) }
        : { decisions: body.decisions, ...permutationsOf(body) },
  );

const permutationsOf = (body: { permutations?: number }) =>
  body.permutations === undefined ? {} : { permutations: body.permutations };

export type DecisionRequest = ({ decision: Decision } | { decisions: Decision[] }) & { permutations?: number };

/** A whole decision request in one schema: the envelope, then the decision fields. */
export function decisionRequestSchema(maxSharedDecisions: number) {
  return decisionEnvelopeSchema(maxSharedDecisions).pipe(decisionFieldsSchema);
}

/** The message a client gets for a refused request: SemIf's words, then the field path when there is one. */
export function decisionProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "Request body must be a JSON object";
  return issue.path.length === 0 ? issue.message : `${issue.message}: ${fieldPath(issue.path)}`;
}

/** `decisions[2].options[1].id` from zod's path. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) => (typeof part === "number" ? `[${part}]` : `${index === 0 ? "" : "."}${String(part)}`))
    .join("");
}

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

/** The request-level check the adapter runs first (DESIGN §4 order), with the decisions still as sent. */
export function parseDecisionEnvelope(payload: unknown, maxSharedDecisions: number): CheckResult<DecisionEnvelope> {
  const parsed = decisionEnvelopeSchema(maxSharedDecisions).safeParse(payload);
  if (!parsed.success) return { ok: false, message: decisionProblem(parsed.error) };
  const body = parsed.data;
  const order = body.permutations === undefined ? {} : { permutations: body.permutations };
  return body.decisions === undefined
    ? { ok: true, value: { mode: "single", decisions: [body.decision], ...order } }
    : { ok: true, value: { mode: "shared", decisions: body.decisions, ...order } };
}

/** The decision fields of an accepted envelope, checked after the reserved-token check. */
export function checkDecisions(envelope: DecisionEnvelope): CheckResult<Decision[]> {
  const body = envelope.mode === "single" ? { decision: envelope.decisions[0] } : { decisions: envelope.decisions };
  const parsed = decisionFieldsSchema.safeParse(body);
  if (!parsed.success) return { ok: false, message: decisionProblem(parsed.error) };
  return { ok: true, value: "decision" in parsed.data ? [parsed.data.decision] : parsed.data.decisions };
}

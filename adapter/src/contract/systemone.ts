import { z } from "zod";
import { reuseTimingShape } from "./common.ts";
import { renderState } from "./decision.ts";

/**
 * TypeSafe `/v1/systemone` (DESIGN §5), as TypeSafe's OpenAPI document (https://api.typesafe.ai/openapi.json, the
 * source `typesafe-sdk` 0.7.5's wire models are generated from) and its API reference state it. Unknown top-level
 * keys are ignored, as that document's models do; every documented field is checked and a failure names its path.
 * What the adapter adds is prefixed `x_`, in requests and in answers.
 */

/** Choice options per question: TypeSafe's Choice reference allows up to 255 (and a choice needs two). */
export const SYSTEMONE_MAX_LABELS = 255;
/** Score levels per question: TypeSafe's Score reference asks for at least two; the API accepts at most 10. */
export const SYSTEMONE_MAX_SCORE_LEVELS = 10;
export const SYSTEMONE_DEFAULT_MAX_QUESTIONS = 64;

/** Structured text: a string, or an object or array the model reads as deterministic JSON. */
const contentSchema = z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())], {
  error: "must be a string, an object or an array",
});
export type SystemOneContent = z.infer<typeof contentSchema>;

/** Structured text as the model reads it: strings as written, objects and arrays as JSON with sorted keys. */
export function contentText(content: SystemOneContent): string {
  return renderState(content as never);
}

export const systemOneStateSchema = contentSchema;
const instructions = contentSchema.nullable().optional();
const description = contentSchema.nullable();

/** `noul`: a yes/no question or statement; criteria optionally say what counts as yes (`true`) and no (`false`). */
export const noulQuestionSchema = z
  .object({
    type: z.literal("noul"),
    instructions,
    criteria: z.object({ true: description.optional(), false: description.optional() }).strict().nullable().optional(),
  })
  // typesafe-sdk's Noul: criteria are "required when `instructions` is `None`" (one outcome described at least).
  .refine((q) => q.instructions != null || q.criteria?.true != null || q.criteria?.false != null, {
    path: ["instructions"],
    message: "is required unless criteria describe the true or the false outcome",
  });

const labelCount = (max: number) => (count: number) => count >= 2 && count <= max;

/** `choice`: pick one criteria key. Criteria map each choice name to its description (or null). */
export const choiceQuestionSchema = z.object({
  type: z.literal("choice"),
  instructions,
  criteria: z
    .record(z.string().min(1, "must be a nonempty choice name"), description, {
      error: "must be an object of {choice name: description}",
    })
    .refine(
      (c) => labelCount(SYSTEMONE_MAX_LABELS)(Object.keys(c).length),
      `must hold 2-${SYSTEMONE_MAX_LABELS} choices`,
    ),
});

/** `score`: an ordinal scale; criteria are the level descriptions, lowest (level 0) first. */
export const scoreQuestionSchema = z.object({
  type: z.literal("score"),
  instructions,
  criteria: z
    .array(contentSchema, { error: "must be a list of level descriptions, lowest first" })
    .refine(
      (c) => labelCount(SYSTEMONE_MAX_SCORE_LEVELS)(c.length),
      `must hold 2-${SYSTEMONE_MAX_SCORE_LEVELS} levels`,
    ),
});

export const systemOneQuestionSchema = z.discriminatedUnion(
  "type",
  [noulQuestionSchema, choiceQuestionSchema, scoreQuestionSchema],
  { error: "must be one of noul, choice, score" },
);
export type SystemOneQuestion = z.infer<typeof systemOneQuestionSchema>;
export type SystemOneQuestionType = SystemOneQuestion["type"];

export const systemOneRequestSchema = z.object(
  {
    state: systemOneStateSchema,
    /** The client's model name (e.g. `jev-latest`); the adapter answers with the model it serves. */
    model: z.string({ error: "must be a model name" }),
    questions: z
      .record(z.string(), systemOneQuestionSchema, { error: "must be an object of {name: question}" })
      .refine((q) => Object.keys(q).length >= 1, "must contain at least one question"),
    /** Extension: score this many cyclic option orders and average them (1 = off). */
    x_permutations: z.number().int().min(1).max(SYSTEMONE_MAX_LABELS).optional(),
  },
  { error: "must be a JSON object" },
);
export type SystemOneRequest = z.infer<typeof systemOneRequestSchema>;

/** One option the model is asked to pick, in the order the question lists it. */
export interface SystemOneLabel {
  /** The key the answer uses: a choice name, `yes`/`no`, or a score level's number. */
  key: string;
  /** What the option means, shown to the model after the key. */
  description: string | null;
}

const describe = (content: SystemOneContent | null | undefined) => (content == null ? null : contentText(content));

/** The options of a question in presentation order, derived from its criteria. */
export function questionLabels(question: SystemOneQuestion): SystemOneLabel[] {
  switch (question.type) {
    case "noul":
      return [
        { key: "yes", description: describe(question.criteria?.true) },
        { key: "no", description: describe(question.criteria?.false) },
      ];
    case "choice":
      return Object.entries(question.criteria).map(([key, d]) => ({ key, description: describe(d) }));
    case "score":
      return question.criteria.map((d, level) => ({ key: String(level), description: describe(d) }));
  }
}

/** The question's instructions as the model reads them, or null when it has none. */
export function questionText(question: SystemOneQuestion): string | null {
  return question.instructions == null ? null : contentText(question.instructions);
}

/**
 * (p_max - 1/K) / (1 - 1/K): 0 for a uniform answer, 1 for a certain one. TypeSafe documents only that confidence
 * "is computed from the probabilities" and that flatter distributions give lower values; this is the formula its
 * answers are reproduced by (see adapter/README.md).
 */
export function answerConfidence(probabilities: readonly number[]): number {
  const k = probabilities.length;
  const pMax = Math.max(...probabilities);
  return Math.min(1, Math.max(0, (pMax - 1 / k) / (1 - 1 / k)));
}

const probability = z.number().min(0).max(1);
/** Per-option max - min across the scored orders; present when `x_permutations` > 1. */
const spread = z.record(z.string(), z.number()).optional();

export const noulAnswerSchema = z.object({
  type: z.literal("noul"),
  /** P(yes). */
  noul: probability,
  x_confidence: probability,
  x_probabilities: z.object({ yes: probability, no: probability }),
  x_spread: spread,
});

export const choiceAnswerSchema = z.object({
  type: z.literal("choice"),
  choice: z.string(),
  confidence: probability,
  probabilities: z.record(z.string(), probability),
  x_spread: spread,
});

export const scoreAnswerSchema = z.object({
  type: z.literal("score"),
  /** Expected level: sum of level * probability over the levels (0 = lowest). */
  score: z.number(),
  confidence: probability,
  /** Level number -> its probability. */
  probabilities: z.record(z.string(), probability),
  /** Level number -> the level's description as sent. */
  legend: z.record(z.string(), z.unknown()),
  /** The most probable level's number. */
  x_level: z.string(),
  x_spread: spread,
});

export const systemOneAnswerSchema = z.discriminatedUnion("type", [
  noulAnswerSchema,
  choiceAnswerSchema,
  scoreAnswerSchema,
]);
export type SystemOneAnswer = z.infer<typeof systemOneAnswerSchema>;

export const systemOneTimingSchema = z.object({
  /** Tokens of the shared state prefix (template head, system text, state). */
  prefix_tokens: z.number().int(),
  /** True when the state prefix was found already evaluated from an earlier request and not evaluated again. */
  prefix_reused: z.boolean(),
  /** Seconds evaluating prompt text (the state once, then each question's text). */
  prefill_seconds: z.number(),
  /** Seconds evaluating option labels. */
  labels_seconds: z.number(),
  permutations: z.number().int(),
  queue_seconds: z.number().optional(),
  total_seconds: z.number(),
  ...reuseTimingShape,
});
export type SystemOneTiming = z.infer<typeof systemOneTimingSchema>;

export const systemOneResponseSchema = z.object({
  model: z.string(),
  answers: z.record(z.string(), systemOneAnswerSchema),
  usage: z.object({ input_tokens: z.number().int(), output_tokens: z.number().int() }),
  x_latency_ms: z.number(),
  x_timing: systemOneTimingSchema.optional(),
});
export type SystemOneResponse = z.infer<typeof systemOneResponseSchema>;

const round = (value: number) => Math.round(value * 1e9) / 1e9;

/** A question's answer in TypeSafe's shape from its labels' probabilities (and their spread over option orders). */
export function systemOneAnswer(
  question: SystemOneQuestion,
  probabilities: readonly number[],
  spreadValues: readonly number[] | null,
): SystemOneAnswer {
  const labels = questionLabels(question);
  const keyed = (values: readonly number[]) =>
    Object.fromEntries(labels.map((label, i) => [label.key, round(values[i]!)]));
  const spreadField = spreadValues ? { x_spread: keyed(spreadValues) } : {};
  const confidence = round(answerConfidence(probabilities));
  const best = probabilities.indexOf(Math.max(...probabilities));
  switch (question.type) {
    case "noul":
      return {
        type: "noul",
        noul: round(probabilities[0]!),
        x_confidence: confidence,
        x_probabilities: { yes: round(probabilities[0]!), no: round(probabilities[1]!) },
        ...spreadField,
      };
    case "choice":
      return {
        type: "choice",
        choice: labels[best]!.key,
        confidence,
        probabilities: keyed(probabilities),
        ...spreadField,
      };
    case "score":
      return {
        type: "score",
        score: round(probabilities.reduce((sum, p, level) => sum + p * level, 0)),
        confidence,
        probabilities: keyed(probabilities),
        legend: Object.fromEntries(question.criteria.map((level, i) => [String(i), level])),
        x_level: labels[best]!.key,
        ...spreadField,
      };
  }
}

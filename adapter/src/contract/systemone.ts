import { z } from "zod";
import { reuseTimingShape } from "./common.ts";

/**
 * TypeSafe `/v1/systemone` (DESIGN §5): the request and answer shapes that Jev, Kev and Strands Decider
 * clients send and parse. Unknown keys are ignored, as TypeSafe's own service does, so clients that send
 * extra fields keep working; every known field is checked and a failure names its path.
 */

/** The systemone limit on labels of one question (criteria keys or score levels). */
export const SYSTEMONE_MAX_LABELS = 255;
export const SYSTEMONE_DEFAULT_MAX_QUESTIONS = 64;

const text = z.string().refine((s) => s.trim().length > 0, "must be a nonempty string");
const description = z.string().nullable();

export const systemOneStateSchema = z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())], {
  error: "must be a string, an object or an array",
});

const labelCount = (count: number) => count >= 2 && count <= SYSTEMONE_MAX_LABELS;
const LABEL_COUNT_MESSAGE = `must hold 2-${SYSTEMONE_MAX_LABELS} entries`;

/** `noul`: a yes/no proposition. Optional criteria describe what yes and no mean. */
export const noulQuestionSchema = z.object({
  type: z.literal("noul"),
  instructions: text,
  criteria: z
    .object({
      yes: description.optional(),
      no: description.optional(),
      true: description.optional(),
      false: description.optional(),
    })
    .strict()
    .nullable()
    .optional(),
});

/** `choice`: pick one criteria key. Criteria are `{key: description | null}` or a list of keys. */
export const choiceQuestionSchema = z.object({
  type: z.literal("choice"),
  instructions: text,
  criteria: z.union(
    [
      z.record(text, description).refine((c) => labelCount(Object.keys(c).length), LABEL_COUNT_MESSAGE),
      z
        .array(text)
        .refine((c) => labelCount(c.length), LABEL_COUNT_MESSAGE)
        .refine((c) => new Set(c).size === c.length, "must not repeat a key"),
    ],
    { error: "must be an object of {key: description} or a list of keys" },
  ),
});

/** `score`: an ordinal scale. Criteria are the levels from lowest to highest: a list, or `{level: description}`. */
export const scoreQuestionSchema = z.object({
  type: z.literal("score"),
  instructions: text,
  criteria: z.union(
    [
      z.array(text).refine((c) => labelCount(c.length), LABEL_COUNT_MESSAGE),
      z.record(text, description).refine((c) => labelCount(Object.keys(c).length), LABEL_COUNT_MESSAGE),
    ],
    { error: "must be a list of levels (lowest first) or an object of {level: description}" },
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
    model: z.string().optional(),
    questions: z
      .record(text, systemOneQuestionSchema, { error: "must be an object of {id: question}" })
      .refine((q) => Object.keys(q).length >= 1, "must contain at least one question"),
    /** Extension: score this many cyclic option orders and average them (1 = off). */
    permutations: z.number().int().min(1).max(SYSTEMONE_MAX_LABELS).optional(),
  },
  { error: "must be a JSON object" },
);
export type SystemOneRequest = z.infer<typeof systemOneRequestSchema>;

/** One option the model is asked to pick, in the order the question lists it. */
export interface SystemOneLabel {
  /** The key the answer uses: a criteria key, `yes`/`no`, or a score level's key. */
  key: string;
  /** What the option means, shown to the model after the key. */
  description: string | null;
}

/** The options of a question in presentation order, derived from its criteria. */
export function questionLabels(question: SystemOneQuestion): SystemOneLabel[] {
  switch (question.type) {
    case "noul": {
      const c = question.criteria ?? {};
      return [
        { key: "yes", description: c.yes ?? c.true ?? null },
        { key: "no", description: c.no ?? c.false ?? null },
      ];
    }
    case "choice":
      return Array.isArray(question.criteria)
        ? question.criteria.map((key) => ({ key, description: null }))
        : Object.entries(question.criteria).map(([key, d]) => ({ key, description: d }));
    case "score":
      return Array.isArray(question.criteria)
        ? question.criteria.map((d, level) => ({ key: String(level), description: d }))
        : Object.entries(question.criteria).map(([key, d]) => ({ key, description: d }));
  }
}

/** (p_max - 1/K) / (1 - 1/K): 0 for a uniform answer, 1 for a certain one. */
export function answerConfidence(probabilities: readonly number[]): number {
  const k = probabilities.length;
  const pMax = Math.max(...probabilities);
  return Math.min(1, Math.max(0, (pMax - 1 / k) / (1 - 1 / k)));
}

const probability = z.number().min(0).max(1);
/** Per-option max - min across the scored orders; present when `permutations` > 1. */
const spread = z.record(z.string(), z.number()).optional();

export const noulAnswerSchema = z.object({
  type: z.literal("noul"),
  /** P(yes), under the name Jev clients read. */
  noul: probability,
  /** P(yes) again, under the name node-llama-cpp's decision answers use. */
  value: probability,
  confidence: probability,
  probabilities: z.object({ yes: probability, no: probability }),
  spread,
});

export const choiceAnswerSchema = z.object({
  type: z.literal("choice"),
  choice: z.string(),
  confidence: probability,
  probabilities: z.record(z.string(), probability),
  spread,
});

export const scoreAnswerSchema = z.object({
  type: z.literal("score"),
  /** Expected level: sum of index * probability over the levels (0 = lowest). */
  score: z.number(),
  /** The most probable level's key. */
  level: z.string(),
  confidence: probability,
  probabilities: z.record(z.string(), probability),
  /** Level key -> the level's description as sent. */
  legend: z.record(z.string(), z.string().nullable()),
  spread,
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

export const systemOneResponseSchema = z.object({
  model: z.string(),
  answers: z.record(z.string(), systemOneAnswerSchema),
  usage: z.object({ input_tokens: z.number().int(), output_tokens: z.number().int() }),
  latency_ms: z.number(),
  timing: systemOneTimingSchema.optional(),
});
export type SystemOneResponse = z.infer<typeof systemOneResponseSchema>;

/** `GET /v1/models` (OpenAI list shape, which TypeSafe and OpenAI clients both read). */
export const modelListSchema = z.object({
  object: z.literal("list"),
  data: z.array(
    z.object({
      id: z.string(),
      object: z.literal("model"),
      created: z.number().int(),
      owned_by: z.string(),
      meta: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
});
export type ModelList = z.infer<typeof modelListSchema>;

/** A zod issue as one sentence that names the field, e.g. `questions.team.criteria: must hold 2-255 entries`. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map((part, i) => (typeof part === "number" ? `[${part}]` : `${i ? "." : ""}${String(part)}`));
  const field = path.join("") || "body";
  return `${field}: ${issue.message}`;
}

export type SystemOneParse = { ok: true; value: SystemOneRequest } | { ok: false; message: string };

/** Validates a systemone body; a failure carries the first problem with its field path (answered as 422). */
export function parseSystemOneRequest(payload: unknown): SystemOneParse {
  const parsed = systemOneRequestSchema.safeParse(payload);
  if (parsed.success) return { ok: true, value: parsed.data };
  const first = parsed.error.issues[0];
  return { ok: false, message: first ? describeIssue(first) : "invalid request" };
}

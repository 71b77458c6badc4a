import {
  type Decision,
  decisionProblem,
  decisionSchema,
  MAX_OPTIONS,
  questionLabels,
  questionText,
  systemOneQuestionSchema,
  systemOneStateSchema,
} from "@decision-console/adapter/contract";
import { z } from "zod";

/** One dataset item: the decision sent to the endpoint, the option id that is right, and optional groupings. */
export interface LabelledDecision {
  decision: Decision;
  answer: string;
  category: string | null;
  tier: string | null;
}

const grouping = z
  .string()
  .nullish()
  .transform((value) => value || null);

/**
 * What a SemIf decision row carries besides the decision (JevBench rows also have `type` and `group`, which are
 * kept out). The decision itself is checked by the adapter's own schema, so a row is refused in the words the
 * endpoint would use.
 */
const labelsSchema = z.looseObject({
  answer: z.string().min(1, "must be a nonempty option id"),
  category: grouping,
  tier: grouping,
});

const answerKey = z.union([z.string().min(1), z.number(), z.boolean()]).transform(String);

/** A TypeSafe `/v1/systemone` request with the right answer per question under `expected` (or `answers`). */
const labelledSystemOneRowSchema = z
  .object({
    id: z.string().min(1).optional(),
    state: systemOneStateSchema,
    questions: z.record(z.string().min(1), systemOneQuestionSchema),
    expected: z.record(z.string(), answerKey).optional(),
    answers: z.record(z.string(), answerKey).optional(),
    category: grouping,
    tier: grouping,
  })
  .refine((row) => Object.keys(row.questions).length > 0, { path: ["questions"], message: "must hold a question" })
  .refine((row) => row.expected ?? row.answers, { path: ["expected"], message: "must give each question's answer" });

const NOUL_KEYS: Record<string, string> = { true: "yes", false: "no", yes: "yes", no: "no" };

export type RowParse = { ok: true; items: LabelledDecision[] } | { ok: false; message: string };

function firstProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "is not a labelled decision";
  const path = issue.path.map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`)).join("");
  return `${path.replace(/^\./, "") || "row"}: ${issue.message}`;
}

function fromSystemOne(raw: unknown, fallbackId: string): RowParse {
  const parsed = labelledSystemOneRowSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, message: firstProblem(parsed.error) };
  const row = parsed.data;
  const expected = row.expected ?? row.answers ?? {};
  const rowId = row.id ?? fallbackId;
  const questionIds = Object.keys(row.questions);
  const items: LabelledDecision[] = [];
  for (const questionId of questionIds) {
    const question = row.questions[questionId] as z.infer<typeof systemOneQuestionSchema>;
    const labels = questionLabels(question);
    if (labels.length > MAX_OPTIONS) {
      return {
        ok: false,
        message: `questions.${questionId}: has ${labels.length} labels; decision scoring takes 2-${MAX_OPTIONS}`,
      };
    }
    const text = questionText(question);
    if (text === null) {
      return { ok: false, message: `questions.${questionId}.instructions: decision scoring needs the question's text` };
    }
    const given = expected[questionId];
    if (given === undefined) return { ok: false, message: `expected.${questionId}: missing the right answer` };
    const answer = question.type === "noul" ? (NOUL_KEYS[given.toLowerCase()] ?? given) : given;
    const ids = labels.map((label) => label.key);
    if (!ids.includes(answer)) {
      return { ok: false, message: `expected.${questionId}: "${given}" is not one of ${ids.join(", ")}` };
    }
    items.push({
      decision: {
        id: questionIds.length === 1 ? rowId : `${rowId}.${questionId}`,
        state: row.state,
        question: text,
        options: labels.map((label) => ({ id: label.key, description: label.description ?? "" })),
      },
      answer,
      category: row.category,
      tier: row.tier,
    });
  }
  return { ok: true, items };
}

/**
 * Reads one dataset row in any of the accepted shapes: a SemIf decision with `answer` (JevBench rows are
 * such decisions), or a labelled systemone request, which gives one item per question.
 */
export function parseLabelledRow(raw: unknown, fallbackId: string): RowParse {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { ok: false, message: "row: must be a JSON object" };
  }
  if ("questions" in raw) return fromSystemOne(raw, fallbackId);
  const decision = decisionSchema.safeParse(raw);
  if (!decision.success) return { ok: false, message: decisionProblem(decision.error) };
  const labels = labelsSchema.safeParse(raw);
  if (!labels.success) return { ok: false, message: firstProblem(labels.error) };
  const { answer, category, tier } = labels.data;
  const ids = decision.data.options.map((option) => option.id);
  if (!ids.includes(answer)) {
    return { ok: false, message: `answer: "${answer}" is not one of the option ids (${ids.join(", ")})` };
  }
  return { ok: true, items: [{ decision: decision.data, answer, category, tier }] };
}

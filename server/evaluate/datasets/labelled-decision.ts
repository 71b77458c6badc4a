import {
  type Decision,
  type DecisionCreate,
  decisionCreateSchema,
  decisionInputText,
  decisionProblem,
  decisionQuestionLabels,
  decisionQuestionText,
  decisionSchema,
  findImagePart,
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

/**
 * An OpenAI `/v1/decisions` request (its `model` optional: the evaluation chooses the endpoints) with the right
 * answer to each question, in question order, under `expected`: `true`/`false` for a predicate, a choice's `value`,
 * a score level's `label`.
 */
const labelledOpenAiRowSchema = decisionCreateSchema
  .omit({ model: true })
  .extend({
    model: z.string().optional(),
    id: z.string().min(1).optional(),
    expected: z.array(answerKey, { error: "must list each question's right answer, in question order" }),
    category: grouping,
    tier: grouping,
  })
  .refine((row) => row.expected.length === row.questions.length, {
    path: ["expected"],
    message: "must list one right answer per question, in question order",
  });

const NOUL_KEYS: Record<string, string> = { true: "yes", false: "no", yes: "yes", no: "no" };

export type RowParse = { ok: true; items: LabelledDecision[] } | { ok: false; message: string };

function firstProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "is not a labelled decision";
  const path = issue.path.map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`)).join("");
  return `${path.replace(/^\./, "") || "row"}: ${issue.message}`;
}

/** One question of a request row as a decision item, or what is wrong with it (its path in the row first). */
function questionItem(
  question: { at: string; id: string; state: Decision["state"]; text: string | null },
  labels: { key: string; description: string | null }[],
  answer: { at: string; given: string; key: string },
  groups: { category: string | null; tier: string | null },
): { item: LabelledDecision } | { message: string } {
  if (labels.length > MAX_OPTIONS) {
    return { message: `${question.at}: has ${labels.length} labels; decision scoring takes 2-${MAX_OPTIONS}` };
  }
  if (!question.text) return { message: `${question.at}.instructions: decision scoring needs the question's text` };
  const ids = labels.map((label) => label.key);
  if (!ids.includes(answer.key)) {
    return { message: `${answer.at}: "${answer.given}" is not one of ${ids.join(", ")}` };
  }
  const decision = decisionSchema.safeParse({
    id: question.id,
    state: question.state,
    question: question.text,
    options: labels.map((label) => ({ id: label.key, description: label.description ?? "" })),
  });
  if (!decision.success) return { message: `${question.at}: ${decisionProblem(decision.error)}` };
  return { item: { decision: decision.data, answer: answer.key, category: groups.category, tier: groups.tier } };
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
    const given = expected[questionId];
    if (given === undefined) return { ok: false, message: `expected.${questionId}: missing the right answer` };
    const built = questionItem(
      {
        at: `questions.${questionId}`,
        id: questionIds.length === 1 ? rowId : `${rowId}.${questionId}`,
        state: row.state as Decision["state"],
        text: questionText(question),
      },
      questionLabels(question),
      {
        at: `expected.${questionId}`,
        given,
        key: question.type === "noul" ? (NOUL_KEYS[given.toLowerCase()] ?? given) : given,
      },
      row,
    );
    if ("message" in built) return { ok: false, message: built.message };
    items.push(built.item);
  }
  return { ok: true, items };
}

/** An OpenAI Decisions request row: one item per question, its input as the state, as the adapter reads them. */
function fromOpenAiDecisions(raw: unknown, fallbackId: string): RowParse {
  const parsed = labelledOpenAiRowSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, message: firstProblem(parsed.error) };
  const row = parsed.data;
  const image = findImagePart({ ...row, model: row.model ?? "" } as DecisionCreate);
  if (image) return { ok: false, message: `${image}: an image part; decision models read text only` };
  const rowId = row.id ?? fallbackId;
  const state = decisionInputText(row.input);
  const items: LabelledDecision[] = [];
  for (const [index, question] of row.questions.entries()) {
    const given = row.expected[index] as string;
    const built = questionItem(
      {
        at: `questions[${index}]`,
        id: row.questions.length === 1 ? rowId : `${rowId}.${question.name ?? index}`,
        state,
        text: decisionQuestionText(question),
      },
      decisionQuestionLabels(question),
      { at: `expected[${index}]`, given, key: given },
      row,
    );
    if ("message" in built) return { ok: false, message: built.message };
    items.push(built.item);
  }
  return { ok: true, items };
}

/**
 * Reads one dataset row in any of the accepted shapes (docs/datasets.md): a SemIf decision with `answer` (JevBench
 * rows are such decisions), or a labelled System One or OpenAI Decisions request, which gives one item per
 * question. The shape is told by the keys, as the adapter routes a request: `input` with `questions` is OpenAI's.
 */
export function parseLabelledRow(raw: unknown, fallbackId: string): RowParse {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { ok: false, message: "row: must be a JSON object" };
  }
  if ("input" in raw && "questions" in raw) return fromOpenAiDecisions(raw, fallbackId);
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

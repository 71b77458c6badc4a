import { z } from "zod";
import { answerConfidence, systemOneTimingSchema } from "./systemone.ts";

/**
 * OpenAI's Decisions API, `POST /v1/decisions` (DESIGN §5), as the official `openai` SDKs type it (Python 3.63.0
 * `types/decision_create_params.py` and `types/decision.py`; npm 7.55.0 `resources/decisions`). The adapter serves
 * text models: an `input_image` part anywhere is refused with OpenAI's error shape.
 */

/** "Ask 1–400 questions about the input." */
export const DECISIONS_MAX_QUESTIONS = 400;
/** "Provide between 2 and 255 choices. Each choice must be unique." */
export const DECISIONS_MAX_CHOICES = 255;
/** Score levels: the adapter's scale limit (the SDK's types give none; TypeSafe's and promptfoo's say 2-10). */
export const DECISIONS_MAX_LEVELS = 10;

const cacheBreakpoint = z
  .object({ mode: z.literal("explicit") })
  .strict()
  .nullish();
const inputText = z
  .object({ type: z.literal("input_text"), text: z.string(), prompt_cache_breakpoint: cacheBreakpoint })
  .strict();
const inputJson = z
  .object({
    type: z.literal("input_json"),
    data: z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))]),
  })
  .strict();
const inputImage = z.object({ type: z.literal("input_image") }).loose();
const inputPart = z.discriminatedUnion("type", [inputText, inputJson, inputImage], {
  error: "must be an input_text, input_json or input_image part",
});
const outputPart = z.discriminatedUnion("type", [
  z.object({ type: z.literal("output_text"), text: z.string() }).strict(),
  z.object({ type: z.literal("refusal"), refusal: z.string() }).strict(),
]);
const toolOutput = z.union([z.string(), z.array(z.discriminatedUnion("type", [inputText, inputImage]))]);

const message = (role: "user" | "developer" | "system") =>
  z
    .object({
      role: z.literal(role),
      content: z.union([z.string(), z.array(role === "user" ? inputPart : inputText)]),
      type: z.literal("message").optional(),
    })
    .strict();
const inputItem = z.union(
  [
    message("user"),
    message("developer"),
    message("system"),
    z
      .object({
        role: z.literal("assistant"),
        content: z.union([z.string(), z.array(outputPart)]),
        phase: z.enum(["commentary", "final_answer"]).nullish(),
        type: z.literal("message").optional(),
      })
      .strict(),
    z
      .object({
        type: z.literal("function_call"),
        call_id: z.string(),
        name: z.string(),
        arguments: z.string(),
        id: z.string().nullish(),
        namespace: z.string().nullish(),
        status: z.enum(["in_progress", "completed", "incomplete"]).nullish(),
      })
      .strict(),
    z
      .object({
        type: z.literal("function_call_output"),
        call_id: z.string(),
        output: toolOutput,
        id: z.string().nullish(),
        status: z.enum(["in_progress", "completed", "incomplete"]).nullish(),
      })
      .strict(),
    z
      .object({
        type: z.literal("custom_tool_call"),
        call_id: z.string(),
        name: z.string(),
        input: z.string(),
        id: z.string().nullish(),
        namespace: z.string().nullish(),
        status: z.enum(["in_progress", "completed", "incomplete"]).nullish(),
      })
      .strict(),
    z
      .object({
        type: z.literal("custom_tool_call_output"),
        call_id: z.string(),
        output: toolOutput,
        id: z.string().nullish(),
        status: z.enum(["in_progress", "completed", "incomplete"]).nullish(),
      })
      .strict(),
  ],
  { error: "must be a message, a function or custom tool call, or its output" },
);
export type DecisionInputItem = z.infer<typeof inputItem>;

const instructions = z.union([
  z.string(),
  z.array(z.discriminatedUnion("type", [inputText.omit({ prompt_cache_breakpoint: true }), inputJson, inputImage])),
]);
const name = z.string().optional();

const predicateQuestion = z.object({ type: z.literal("predicate"), instructions, name }).strict();
const choiceValue = z.union([z.string(), z.boolean()]);
const choiceQuestion = z
  .object({
    type: z.literal("choice"),
    instructions,
    name,
    choices: z
      .array(z.object({ value: choiceValue, description: z.string().optional() }).strict())
      .min(2, `must hold 2-${DECISIONS_MAX_CHOICES} choices`)
      .max(DECISIONS_MAX_CHOICES, `must hold 2-${DECISIONS_MAX_CHOICES} choices`)
      .refine(
        (choices) => new Set(choices.map((c) => `${typeof c.value}:${c.value}`)).size === choices.length,
        "each choice must be unique",
      ),
  })
  .strict();
const scoreQuestion = z
  .object({
    type: z.literal("score"),
    instructions,
    name,
    levels: z
      .array(z.object({ label: z.string(), description: z.string().optional() }).strict())
      .min(2, `must hold 2-${DECISIONS_MAX_LEVELS} levels`)
      .max(DECISIONS_MAX_LEVELS, `must hold 2-${DECISIONS_MAX_LEVELS} levels`),
  })
  .strict();
export const decisionQuestionSchema = z.discriminatedUnion("type", [predicateQuestion, choiceQuestion, scoreQuestion], {
  error: "must be a predicate, choice or score question",
});
export type DecisionQuestion = z.infer<typeof decisionQuestionSchema>;

type ToolItem = Extract<DecisionInputItem, { call_id: string }>;

/** The call a tool output answers, by output type. */
const CALL_OF_OUTPUT: Record<string, string> = {
  function_call_output: "function_call",
  custom_tool_call_output: "custom_tool_call",
};

/** "Each tool output must identify a matching call by call ID": a call of its kind in the input with that call_id. */
const inputItems = z
  .array(inputItem)
  .min(1, "must hold at least one item")
  .superRefine((items, context) => {
    const tools = items.filter((item): item is ToolItem => "call_id" in item);
    const calls = new Set(tools.map((item) => `${item.type}:${item.call_id}`));
    for (const item of tools) {
      const call = CALL_OF_OUTPUT[item.type];
      if (call === undefined || calls.has(`${call}:${item.call_id}`)) continue;
      const index = items.indexOf(item);
      context.addIssue({
        code: "custom",
        path: [index, "call_id"],
        message: `must identify a ${call} in the input with call_id ${JSON.stringify(item.call_id)}`,
      });
    }
  });

export const decisionCreateSchema = z
  .object({
    model: z.string({ error: "must be a model name" }),
    input: z.union([z.string(), inputItems], { error: "must be a string or a list of input items" }),
    questions: z
      .array(decisionQuestionSchema)
      .min(1, `must hold 1-${DECISIONS_MAX_QUESTIONS} questions`)
      .max(DECISIONS_MAX_QUESTIONS, `must hold 1-${DECISIONS_MAX_QUESTIONS} questions`),
    prompt_cache_key: z.string().nullish(),
    prompt_cache_options: z
      .object({ mode: z.enum(["implicit", "explicit"]).nullish(), ttl: z.literal("30m").optional() })
      .strict()
      .nullish(),
    safety_identifier: z.string().nullish(),
  })
  .strict();
export type DecisionCreate = z.infer<typeof decisionCreateSchema>;

type InputPart = { type: string; prompt_cache_breakpoint?: unknown };

/** The content parts of a request's input items (message content, tool outputs), each with its path. */
function* inputParts(input: DecisionCreate["input"]): Generator<{ path: string; part: InputPart }> {
  if (!Array.isArray(input)) return;
  for (const [i, item] of input.entries()) {
    const field = "content" in item ? "content" : "output" in item ? "output" : null;
    const parts = field ? (item as Record<string, unknown>)[field] : null;
    if (!Array.isArray(parts)) continue;
    for (const [j, part] of (parts as InputPart[]).entries()) yield { path: `input[${i}].${field}[${j}]`, part };
  }
}

/** The path of the first `input_image` part in a request, or null: the adapter's models read text only. */
export function findImagePart(request: DecisionCreate): string | null {
  const isImage = (part: { type: string }) => part.type === "input_image";
  for (const { path, part } of inputParts(request.input)) {
    if (isImage(part)) return path;
  }
  for (const [q, question] of request.questions.entries()) {
    if (Array.isArray(question.instructions)) {
      const index = question.instructions.findIndex(isImage);
      if (index >= 0) return `questions[${q}].instructions[${index}]`;
    }
  }
  return null;
}

/**
 * Whether a request uses prompt caching: OpenAI documents that with `prompt_cache_options.mode: "explicit"` "If
 * there are no explicit breakpoints, the request does not use prompt caching" (breakpoints mark input_text parts).
 */
export function usesPromptCache(request: DecisionCreate): boolean {
  if (request.prompt_cache_options?.mode !== "explicit") return true;
  for (const { part } of inputParts(request.input)) {
    if (part.prompt_cache_breakpoint) return true;
  }
  return false;
}

const json = (data: unknown) => JSON.stringify(data);
type TextPart = { type: string; text?: string; data?: unknown; refusal?: string };
const partText = (part: TextPart) =>
  part.type === "input_json"
    ? json(part.data)
    : part.type === "refusal"
      ? `(refused) ${part.refusal}`
      : (part.text ?? "");
const partsText = (content: string | readonly TextPart[]) =>
  typeof content === "string" ? content : content.map(partText).join("\n");

/** The input as the model reads it: a string as written, items one per paragraph with their role or kind. */
export function decisionInputText(input: DecisionCreate["input"]): string {
  if (typeof input === "string") return input;
  return input
    .map((item) => {
      if ("role" in item) return `${item.role}: ${partsText(item.content as string | TextPart[])}`;
      switch (item.type) {
        case "function_call":
          return `function call ${item.name} (${item.call_id}): ${item.arguments}`;
        case "custom_tool_call":
          return `tool call ${item.name} (${item.call_id}): ${item.input}`;
        default:
          return `output of ${item.call_id}: ${partsText(item.output as string | TextPart[])}`;
      }
    })
    .join("\n\n");
}

/** A question's instructions as the model reads them. */
export function decisionQuestionText(question: DecisionQuestion): string {
  return partsText(question.instructions as string | TextPart[]);
}

/** The options a question asks the model to pick from, in order, with their descriptions. */
export function decisionQuestionLabels(question: DecisionQuestion): { key: string; description: string | null }[] {
  switch (question.type) {
    case "predicate":
      return [
        { key: "true", description: null },
        { key: "false", description: null },
      ];
    case "choice":
      return question.choices.map((c) => ({ key: String(c.value), description: c.description ?? null }));
    case "score":
      return question.levels.map((level) => ({ key: level.label, description: level.description ?? null }));
  }
}

const round = (value: number) => Math.round(value * 1e9) / 1e9;

const probability = z.number().min(0).max(1);
const answerName = z.string().nullable();
export const decisionAnswerSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("predicate"), name: answerName, probability }),
  z.object({
    type: z.literal("choice"),
    name: answerName,
    choice: choiceValue,
    confidence: probability,
    probabilities: z.array(z.object({ value: choiceValue, probability })),
  }),
  z.object({
    type: z.literal("score"),
    name: answerName,
    score: z.number(),
    confidence: probability,
    probabilities: z.array(z.object({ label: z.string(), value: z.number().int(), probability })),
  }),
  z.object({ type: z.literal("refusal"), name: answerName }),
]);
export type DecisionAnswer = z.infer<typeof decisionAnswerSchema>;

/** The response of `/v1/decisions`: OpenAI's `Decision`, with the adapter's timings under `x_timing`. */
export const openAiDecisionSchema = z.object({
  answers: z.array(decisionAnswerSchema),
  model: z.string(),
  usage: z.object({
    input_tokens: z.number().int(),
    input_tokens_details: z.object({ cache_write_tokens: z.number().int(), cached_tokens: z.number().int() }),
    output_tokens: z.number().int(),
    output_tokens_details: z.object({ reasoning_tokens: z.number().int() }),
    total_tokens: z.number().int(),
  }),
  x_timing: systemOneTimingSchema.nullable(),
});
export type OpenAiDecision = z.infer<typeof openAiDecisionSchema>;

/** A question's answer in OpenAI's shape from its options' probabilities (in `decisionQuestionLabels` order). */
export function decisionAnswer(question: DecisionQuestion, probabilities: readonly number[]): DecisionAnswer {
  const name = question.name ?? null;
  const confidence = round(answerConfidence(probabilities));
  const best = probabilities.indexOf(Math.max(...probabilities));
  switch (question.type) {
    case "predicate":
      return { type: "predicate", name, probability: round(probabilities[0]!) };
    case "choice":
      return {
        type: "choice",
        name,
        choice: question.choices[best]!.value,
        confidence,
        probabilities: question.choices.map((c, i) => ({ value: c.value, probability: round(probabilities[i]!) })),
      };
    case "score":
      return {
        type: "score",
        name,
        score: round(probabilities.reduce((sum, p, level) => sum + p * level, 0)),
        confidence,
        probabilities: question.levels.map((level, i) => ({
          label: level.label,
          value: i,
          probability: round(probabilities[i]!),
        })),
      };
  }
}

/** OpenAI's error body: `{"error": {message, type, param, code}}`. */
export function openAiError(message: string, code: string, param: string | null = null) {
  return { error: { message, type: "invalid_request_error", param, code } };
}

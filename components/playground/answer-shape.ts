import {
  chatCompletionSchema,
  type OpenAiDecision,
  openAiDecisionSchema,
  type SharedDecisionResponse,
  type SingleDecisionResponse,
  type SystemOneResponse,
  sharedDecisionResponseSchema,
  singleDecisionResponseSchema,
  systemOneResponseSchema,
} from "@decision-console/adapter/contract";
import { type ZodType, z } from "zod";

/**
 * The assistant's message of a chat completion: the adapter's message schema, read from any OpenAI-style answer
 * (a text-generation image such as the llama.cpp DLC adds or leaves out other fields).
 */
const chatAnswerSchema = z.object({
  choices: z.array(z.object({ message: chatCompletionSchema.shape.choices.element.shape.message })).min(1),
});

export type AnswerShape =
  | { kind: "single"; body: SingleDecisionResponse }
  | { kind: "shared"; body: SharedDecisionResponse }
  | { kind: "systemone"; body: SystemOneResponse }
  | { kind: "openai-decisions"; body: OpenAiDecision }
  | { kind: "chat"; body: z.infer<typeof chatAnswerSchema> }
  /** A request of none of these kinds: the answer is shown raw only. */
  | { kind: "other"; body: unknown }
  /** The answer does not fit the schema of what was asked: what does not fit. */
  | { kind: "unexpected"; body: unknown; expected: string; problem: string };

const answerSchemas = {
  single: { schema: singleDecisionResponseSchema, name: "a decision answer ({result, timing})" },
  shared: { schema: sharedDecisionResponseSchema, name: "a shared decision answer ({results, timing})" },
  systemone: { schema: systemOneResponseSchema, name: "a systemone answer" },
  "openai-decisions": { schema: openAiDecisionSchema, name: "an OpenAI decisions answer ({answers, model, usage})" },
  chat: { schema: chatAnswerSchema, name: "a chat completion ({choices: [{message}]})" },
} satisfies Record<string, { schema: ZodType; name: string }>;

export type RequestKind = keyof typeof answerSchemas;

/** The container's routes by the request's keys (the adapter's own dispatch): what was asked decides the answer. */
export function askedFor(request: Record<string, unknown>): RequestKind | null {
  if ("decision" in request) return "single";
  if ("decisions" in request) return "shared";
  if ("input" in request && "questions" in request) return "openai-decisions";
  if ("questions" in request) return "systemone";
  if ("messages" in request) return "chat";
  return null;
}

/** The answer read with the one schema of what the request asked for. */
export function answerShapeOf(request: Record<string, unknown>, body: unknown): AnswerShape {
  const kind = askedFor(request);
  if (!kind) return { kind: "other", body };
  const { schema, name } = answerSchemas[kind];
  const parsed = schema.safeParse(body);
  if (parsed.success) return { kind, body: parsed.data } as AnswerShape;
  const [issue] = parsed.error.issues;
  const at = issue?.path.length ? `${issue.path.join(".")}: ` : "";
  return { kind: "unexpected", body, expected: name, problem: `${at}${issue?.message ?? "does not fit"}` };
}

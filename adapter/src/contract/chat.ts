import { z } from "zod";

/**
 * OpenAI chat completions (DESIGN §6): the request subset the adapter honours and the response and
 * server-sent-event chunk shapes it returns. Unknown request keys are ignored, as OpenAI-compatible servers
 * do, so stock clients that add fields (`n: 1`, `frequency_penalty: 0`, ...) keep working.
 */

export const CHAT_MAX_STOP_SEQUENCES = 4;
export const CHAT_DEFAULT_MAX_TOKENS = 256;

const textPart = z.object({ type: z.literal("text"), text: z.string() });

export const chatMessageSchema = z.object({
  role: z.enum(["system", "developer", "user", "assistant"]),
  content: z.union([z.string(), z.array(textPart).min(1)], {
    error: "content must be a string or a list of text parts",
  }),
  name: z.string().optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const chatCompletionRequestSchema = z.object({
  model: z.string().optional(),
  messages: z.array(chatMessageSchema).min(1, "must contain at least one message"),
  max_tokens: z.number().int().min(1).nullable().optional(),
  /** Newer name of `max_tokens` that current OpenAI clients send. */
  max_completion_tokens: z.number().int().min(1).nullable().optional(),
  temperature: z.number().min(0).max(2).nullable().optional(),
  top_p: z.number().gt(0).max(1).nullable().optional(),
  stop: z
    .union([z.string().min(1), z.array(z.string().min(1)).max(CHAT_MAX_STOP_SEQUENCES)])
    .nullable()
    .optional(),
  seed: z.number().int().nullable().optional(),
  stream: z.boolean().nullable().optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).nullable().optional(),
  n: z.literal(1, { error: "only n = 1 is supported" }).nullable().optional(),
});
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

/** The text of a message, whether sent as a string or as text parts. */
export function messageText(message: ChatMessage): string {
  return typeof message.content === "string" ? message.content : message.content.map((p) => p.text).join("");
}

export const finishReasonSchema = z.enum(["stop", "length"]);
export type FinishReason = z.infer<typeof finishReasonSchema>;

export const chatUsageSchema = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});
export type ChatUsage = z.infer<typeof chatUsageSchema>;

export const chatCompletionSchema = z.object({
  id: z.string(),
  object: z.literal("chat.completion"),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({ role: z.literal("assistant"), content: z.string() }),
      finish_reason: finishReasonSchema,
      logprobs: z.null(),
    }),
  ),
  usage: chatUsageSchema,
});
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;

export const chatCompletionChunkSchema = z.object({
  id: z.string(),
  object: z.literal("chat.completion.chunk"),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({ role: z.literal("assistant").optional(), content: z.string().optional() }),
      finish_reason: finishReasonSchema.nullable(),
      logprobs: z.null(),
    }),
  ),
  usage: chatUsageSchema.nullable().optional(),
});
export type ChatCompletionChunk = z.infer<typeof chatCompletionChunkSchema>;

/** The line that ends every chat completion event stream. */
export const SSE_DONE = "data: [DONE]\n\n";

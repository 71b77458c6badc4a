import { randomUUID } from "node:crypto";
import {
  type ChatCompletion,
  type ChatCompletionChunk,
  type ChatCompletionRequest,
  type ChatUsage,
  SSE_DONE,
} from "../contract/chat.ts";
import { ChatBudgetError, ChatEngine, type ChatGenerationInput, type ChatGenerationResult } from "./chat.ts";
import type { Engine } from "./engine.ts";
import { RequestError } from "./request-error.ts";
import { servedModelId } from "./systemone-models.ts";

const engines = new WeakMap<Engine, ChatEngine>();

export function chatFor(engine: Engine): ChatEngine {
  let chat = engines.get(engine);
  if (!chat) {
    chat = new ChatEngine(engine.loaded.model, engine.loaded.contextSize, engine.config.promptTemplate);
    engines.set(engine, chat);
  }
  return chat;
}

/** OpenAI's request fields with their defaults applied (temperature 1, no top-p cut, no stop strings). */
export function generationInput(request: ChatCompletionRequest): ChatGenerationInput {
  const stop = request.stop ?? [];
  return {
    messages: request.messages,
    maxTokens: request.max_completion_tokens ?? request.max_tokens ?? null,
    temperature: request.temperature ?? 1,
    topP: request.top_p ?? null,
    stop: typeof stop === "string" ? [stop] : stop,
    seed: request.seed ?? null,
  };
}

const usageOf = (result: ChatGenerationResult): ChatUsage => ({
  prompt_tokens: result.promptTokens,
  completion_tokens: result.completionTokens,
  total_tokens: result.promptTokens + result.completionTokens,
});

/** A prepared completion: budget checked, so a refusal is a 400 before any stream starts. */
export type ChatCall = {
  id: string;
  created: number;
  model: string;
  run(onText?: (text: string) => void): Promise<ChatGenerationResult>;
};

export function prepareChat(engine: Engine, request: ChatCompletionRequest): ChatCall {
  const chat = chatFor(engine);
  const input = generationInput(request);
  try {
    chat.prepare(input);
  } catch (error) {
    if (error instanceof ChatBudgetError) throw new RequestError(error.message);
    throw error;
  }
  return {
    id: `chatcmpl-${randomUUID()}`,
    created: Math.floor(Date.now() / 1000),
    model: servedModelId(engine.metadata),
    run: (onText) => engine.pool.lease([], (lease) => chat.generate(lease.sequence, input, onText)),
  };
}

export async function completeChat(
  call: ChatCall,
): Promise<{ completion: ChatCompletion; result: ChatGenerationResult }> {
  const result = await call.run();
  return {
    result,
    completion: {
      id: call.id,
      object: "chat.completion",
      created: call.created,
      model: call.model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: result.text },
          finish_reason: result.finishReason,
          logprobs: null,
        },
      ],
      usage: usageOf(result),
    },
  };
}

const event = (chunk: ChatCompletionChunk | { error: { message: string } }) => `data: ${JSON.stringify(chunk)}\n\n`;

/**
 * Server-sent events as OpenAI streams them: a first chunk with the assistant role, one chunk per text piece, a
 * last chunk with `finish_reason`, a usage chunk when `stream_options.include_usage`, then `data: [DONE]`.
 * A failure after the stream started ends it with an error event and no [DONE]; `onEnd` gets the outcome.
 */
export async function* streamChat(
  call: ChatCall,
  includeUsage: boolean,
  onEnd: (outcome: { result?: ChatGenerationResult; error?: unknown }) => void,
): AsyncGenerator<string> {
  const chunk = (
    delta: ChatCompletionChunk["choices"][0]["delta"],
    finishReason: ChatCompletionChunk["choices"][0]["finish_reason"],
  ) =>
    event({
      id: call.id,
      object: "chat.completion.chunk",
      created: call.created,
      model: call.model,
      choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
      ...(includeUsage ? { usage: null } : {}),
    });
  const pending: string[] = [chunk({ role: "assistant", content: "" }, null)];
  let finished = false;
  let failure: unknown = null;
  let wake: (() => void) | null = null;
  const push = (text: string) => {
    pending.push(text);
    wake?.();
  };
  call
    .run((text) => push(chunk({ content: text }, null)))
    .then(
      (result) => {
        push(chunk({}, result.finishReason));
        if (includeUsage) {
          push(
            event({
              id: call.id,
              object: "chat.completion.chunk",
              created: call.created,
              model: call.model,
              choices: [],
              usage: usageOf(result),
            }),
          );
        }
        push(SSE_DONE);
        onEnd({ result });
      },
      (error: unknown) => {
        failure = error;
        onEnd({ error });
      },
    )
    .finally(() => {
      finished = true;
      wake?.();
    });
  while (true) {
    const next = pending.shift();
    if (next !== undefined) {
      yield next;
      continue;
    }
    if (finished) break;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
    wake = null;
  }
  if (failure !== null) yield event({ error: { message: "generation failed" } });
}

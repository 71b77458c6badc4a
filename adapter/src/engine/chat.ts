import {
  type ChatHistoryItem,
  type ChatWrapper,
  GeneralChatWrapper,
  LlamaChat,
  type LlamaContextSequence,
  type LlamaModel,
  resolveChatWrapper,
} from "node-llama-cpp";
import { CHAT_DEFAULT_MAX_TOKENS, type ChatMessage, type FinishReason, messageText } from "../contract/chat.ts";

/** What one chat completion asks for, after validation and defaults. */
export type ChatGenerationInput = {
  messages: readonly ChatMessage[];
  maxTokens: number | null;
  temperature: number;
  topP: number | null;
  stop: readonly string[];
  seed: number | null;
};

export type ChatGenerationResult = {
  text: string;
  finishReason: FinishReason;
  promptTokens: number;
  completionTokens: number;
};

/** A request that cannot be answered within the limits; the route answers it with a 400 and this message. */
export class ChatBudgetError extends Error {}

/**
 * The chat format: the GGUF's own chat template when it has one (node-llama-cpp resolves it to its Jinja or
 * specialised wrapper), else node-llama-cpp's `GeneralChatWrapper` ("### Human" / "### Assistant" turns), the
 * documented fallback (also with ADAPTER_PROMPT_TEMPLATE=fallback); guessing a family's template for a file that
 * declares none would be arbitrary.
 */
export function chatWrapperFor(
  model: LlamaModel,
  mode: "auto" | "fallback",
): { wrapper: ChatWrapper; source: "gguf" | "fallback" } {
  const template = (model.fileInfo.metadata.tokenizer as { chat_template?: unknown }).chat_template;
  if (mode === "auto" && typeof template === "string" && template.length > 0) {
    return { wrapper: resolveChatWrapper(model, { fallbackToOtherWrappersOnJinjaError: true }), source: "gguf" };
  }
  return { wrapper: new GeneralChatWrapper(), source: "fallback" };
}

/** OpenAI messages as node-llama-cpp chat history, ending with the (possibly prefilled) assistant turn. */
export function toChatHistory(messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = [];
  for (const message of messages) {
    const text = messageText(message);
    if (message.role === "system" || message.role === "developer") history.push({ type: "system", text });
    else if (message.role === "user") history.push({ type: "user", text });
    else history.push({ type: "model", response: [text] });
  }
  if (history.at(-1)?.type !== "model") history.push({ type: "model", response: [] });
  return history;
}

const refuseContextShift = (): never => {
  throw new Error("context shift refused: the conversation does not fit the context");
};

/**
 * Generates one assistant reply on a sequence that the caller holds exclusively for the call. The prompt and
 * the reply must fit `contextSize` together: `max_tokens` is capped to what is left, so the context never
 * shifts (a shift would silently drop the start of the conversation; it throws if it is ever attempted).
 */
export class ChatEngine {
  readonly wrapper: ChatWrapper;
  readonly templateSource: "gguf" | "fallback";

  constructor(
    private readonly model: LlamaModel,
    private readonly contextSize: number,
    templateMode: "auto" | "fallback" = "auto",
  ) {
    const { wrapper, source } = chatWrapperFor(model, templateMode);
    this.wrapper = wrapper;
    this.templateSource = source;
  }

  /** Tokens of the rendered conversation up to where the assistant's reply starts. */
  promptTokens(messages: readonly ChatMessage[]): number {
    const { contextText } = this.wrapper.generateContextState({ chatHistory: toChatHistory(messages) });
    return contextText.tokenize(this.model.tokenizer).length;
  }

  /** Checks that the conversation fits and settles the reply's token limit; throws ChatBudgetError otherwise. */
  prepare(input: ChatGenerationInput): { promptTokens: number; maxTokens: number } {
    const promptTokens = this.promptTokens(input.messages);
    const room = this.contextSize - promptTokens;
    if (room < 1) {
      throw new ChatBudgetError(
        `messages exceed the token budget: ${promptTokens} prompt tokens, the context holds ${this.contextSize}`,
      );
    }
    return { promptTokens, maxTokens: Math.min(input.maxTokens ?? CHAT_DEFAULT_MAX_TOKENS, room) };
  }

  async generate(
    sequence: LlamaContextSequence,
    input: ChatGenerationInput,
    onText?: (text: string) => void,
    signal?: AbortSignal,
  ): Promise<ChatGenerationResult> {
    const { promptTokens, maxTokens } = this.prepare(input);
    // The sequence's meter counts every sampled token, also those of thought segments that onToken never sees.
    const meterBefore = sequence.tokenMeter.getState();
    const chat = new LlamaChat({ contextSequence: sequence, chatWrapper: this.wrapper, autoDisposeSequence: false });
    try {
      const result = await chat.generateResponse(toChatHistory(input.messages), {
        maxTokens,
        temperature: input.temperature,
        ...(input.topP === null ? {} : { topP: input.topP }),
        ...(input.seed === null ? {} : { seed: input.seed }),
        ...(input.stop.length === 0 ? {} : { customStopTriggers: input.stop }),
        contextShift: { strategy: refuseContextShift },
        signal,
        stopOnAbortSignal: true,
        onTextChunk: onText,
      });
      const finishReason: FinishReason = result.metadata.stopReason === "maxTokens" ? "length" : "stop";
      const completionTokens = sequence.tokenMeter.diff(meterBefore).usedOutputTokens;
      return { text: result.response, finishReason, promptTokens, completionTokens };
    } finally {
      chat.dispose({ disposeSequence: false });
    }
  }
}

import { chatCompletionRequestSchema } from "../../contract/chat.ts";
import { describeIssue } from "../../contract/systemone-errors.ts";
import { completeChat, prepareChat, streamChat } from "../../engine/chat-service.ts";
import { RequestError } from "../../engine/request-error.ts";
import { findReservedToken } from "../../engine/reserved-tokens.ts";
import type { Route } from "../route.ts";

/**
 * OpenAI chat completions (DESIGN §6), also through `/invocations` for `messages` bodies (with `stream: true`,
 * the server-sent events that SageMaker's InvokeEndpointWithResponseStream passes through). Checks: shape (400,
 * naming the field) -> reserved tokens (400) -> the conversation must fit the context (400) -> generation.
 */
const chatRoute: Route = {
  name: "chat",
  method: "POST",
  paths: ["/v1/chat/completions"],
  matchesInvocation: (body) => "messages" in body,
  async handle(body, { engine, log }) {
    const parsed = chatCompletionRequestSchema.safeParse(body);
    if (!parsed.success) throw new RequestError(describeIssue(parsed.error.issues[0]!));
    const request = parsed.data;
    const reserved = findReservedToken(request.messages, engine.reservedTokens);
    if (reserved !== null) {
      throw new RequestError(`messages cannot contain the reserved prompt control token ${reserved}`);
    }
    const call = prepareChat(engine, request);
    log.stream = request.stream === true;
    if (request.stream) {
      const stream = streamChat(call, request.stream_options?.include_usage === true, ({ result, error }) => {
        if (result) log.usage = { prompt_tokens: result.promptTokens, completion_tokens: result.completionTokens };
        if (error) log.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
      });
      return { status: 200, stream, contentType: "text/event-stream" };
    }
    const { completion } = await completeChat(call);
    log.usage = completion.usage;
    return { status: 200, body: completion };
  },
};

export default chatRoute;

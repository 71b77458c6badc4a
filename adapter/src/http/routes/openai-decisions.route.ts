import { decisionCreateSchema, findImagePart, openAiError } from "../../contract/openai-decisions.ts";
import { describeIssue } from "../../contract/systemone-errors.ts";
import { answerDecisions } from "../../engine/openai-decisions-service.ts";
import { RequestError } from "../../engine/request-error.ts";
import { findReservedToken } from "../../engine/reserved-tokens.ts";
import type { Route } from "../route.ts";

const paramOf = (message: string) => /^([\w.[\]]+): /.exec(message)?.[1] ?? null;

/**
 * OpenAI `/v1/decisions` (DESIGN §5): shape (400) -> images (400, text models) -> reserved tokens (400) -> request
 * budget (400) -> scoring, with per-question refusals for a question too long to read. Errors carry OpenAI's
 * `{"error": {message, type, param, code}}`.
 */
const decisionsRoute: Route = {
  name: "openai-decisions",
  method: "POST",
  paths: ["/v1/decisions"],
  matchesInvocation: (body) => "input" in body && "questions" in body,
  errorBody: (_status, message, code) => openAiError(message, code, paramOf(message)),
  async handle(body, { engine, log }) {
    const parsed = decisionCreateSchema.safeParse(body);
    if (!parsed.success) throw new RequestError(describeIssue(parsed.error.issues[0]!), 400, "invalid_value");
    const image = findImagePart(parsed.data);
    if (image !== null) {
      throw new RequestError(
        `${image}: this model reads text only; input_image parts are not supported`,
        400,
        "unsupported_content",
      );
    }
    const reserved = findReservedToken(parsed.data, engine.reservedTokens);
    if (reserved !== null) {
      throw new RequestError(`request text cannot contain the reserved prompt control token ${reserved}`, 400);
    }
    const response = await answerDecisions(engine, parsed.data);
    log.questions = response.answers.length;
    log.input_tokens = response.usage.input_tokens;
    log.timing = response.x_timing;
    return { status: 200, body: response };
  },
};

export default decisionsRoute;

import { parseSystemOneRequest, systemOneError } from "../../contract/systemone-errors.ts";
import { RequestError } from "../../engine/request-error.ts";
import { findReservedToken } from "../../engine/reserved-tokens.ts";
import { answerSystemOne } from "../../engine/systemone-service.ts";
import type { Route } from "../route.ts";

/** What the adapter cannot serve of TypeSafe's documented request: images (`assets`) and `box` questions. */
function unservable(body: Record<string, unknown>): string | null {
  if (body.assets !== undefined && body.assets !== null) {
    return "assets: this model reads text only; image assets are not supported";
  }
  const questions = body.questions;
  if (typeof questions !== "object" || questions === null) return null;
  for (const [name, question] of Object.entries(questions)) {
    if ((question as { type?: unknown } | null)?.type === "box") {
      return `questions.${name}: box questions locate things in images; this model reads text only`;
    }
  }
  return null;
}

/**
 * TypeSafe `/v1/systemone` (DESIGN §5): shape (422 with `detail[]`) -> images (400) -> reserved tokens (400) ->
 * limits (400 `max_tokens_exceeded`) -> scoring. Refusals after the shape carry `detail: {error_type, message}`.
 */
const systemOneRoute: Route = {
  name: "systemone",
  method: "POST",
  paths: ["/v1/systemone"],
  matchesInvocation: (body) => "questions" in body && !("input" in body),
  errorBody: (_status, message, code) => systemOneError(code, message),
  async handle(body, { engine, log }) {
    const images = typeof body === "object" && body !== null ? unservable(body as Record<string, unknown>) : null;
    if (images !== null) throw new RequestError(images, 400, "unsupported_content");
    const parsed = parseSystemOneRequest(body);
    if (!parsed.ok) return { status: 422, body: { detail: parsed.detail } };
    const reserved = findReservedToken(parsed.value, engine.reservedTokens);
    if (reserved !== null) {
      throw new RequestError(`request text cannot contain the reserved prompt control token ${reserved}`, 400);
    }
    const response = await answerSystemOne(engine, parsed.value);
    log.questions = Object.keys(response.answers).length;
    log.input_tokens = response.usage.input_tokens;
    log.timing = response.x_timing;
    return { status: 200, body: response };
  },
};

export default systemOneRoute;

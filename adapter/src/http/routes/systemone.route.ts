import { parseSystemOneRequest } from "../../contract/systemone.ts";
import { RequestError } from "../../engine/request-error.ts";
import { findReservedToken } from "../../engine/reserved-tokens.ts";
import { answerSystemOne } from "../../engine/systemone-service.ts";
import type { Route } from "../route.ts";

/** TypeSafe `/v1/systemone` (DESIGN §5): shape (422) -> reserved tokens (422) -> token budget (422) -> scoring. */
const systemOneRoute: Route = {
  name: "systemone",
  method: "POST",
  paths: ["/v1/systemone"],
  matchesInvocation: (body) => "questions" in body,
  async handle(body, { engine, log }) {
    const parsed = parseSystemOneRequest(body);
    if (!parsed.ok) throw new RequestError(parsed.message, 422);
    const reserved = findReservedToken(parsed.value, engine.reservedTokens);
    if (reserved !== null) {
      throw new RequestError(`request text cannot contain the reserved prompt control token ${reserved}`, 422);
    }
    const response = await answerSystemOne(engine, parsed.value);
    log.questions = Object.keys(response.answers).length;
    log.input_tokens = response.usage.input_tokens;
    log.timing = response.timing;
    return { status: 200, body: response };
  },
};

export default systemOneRoute;

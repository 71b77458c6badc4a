import { checkDecisions, parseDecisionEnvelope } from "../../contract/decision.ts";
import { scoreDebiasedDecisions } from "../../engine/debias-decisions.ts";
import { RequestError } from "../../engine/request-error.ts";
import { findReservedToken } from "../../engine/reserved-tokens.ts";
import type { Route } from "../route.ts";

/** SemIf decision scoring (DESIGN §4): shape -> reserved tokens -> fields -> token budget -> scoring. */
const decisionRoute: Route = {
  name: "decision",
  method: "POST",
  paths: [],
  matchesInvocation: (body) => "decision" in body || "decisions" in body,
  invocationDefault: true,
  async handle(body, { engine, log }) {
    const envelope = parseDecisionEnvelope(body, engine.config.maxSharedDecisions);
    if (!envelope.ok) throw new RequestError(envelope.message);
    if (findReservedToken(envelope.value.decisions, engine.reservedTokens) !== null) {
      throw new RequestError("Decision fields cannot contain reserved prompt control tokens");
    }
    const decisions = checkDecisions(envelope.value);
    if (!decisions.ok) throw new RequestError(decisions.message);
    const permutations = envelope.value.permutations ?? engine.config.permutations;
    const response =
      permutations > 1
        ? await scoreDebiasedDecisions(engine, decisions.value, envelope.value.mode, permutations)
        : envelope.value.mode === "single"
          ? await engine.decisions.score(decisions.value, "single")
          : await engine.decisions.score(decisions.value, "shared");
    const results = "result" in response ? [response.result] : response.results;
    log.decisions = results.length;
    log.input_tokens = results.reduce((sum, result) => sum + result.input_tokens, 0);
    log.timing = response.timing;
    return { status: 200, body: response };
  },
};

export default decisionRoute;

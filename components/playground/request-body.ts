import type { DecisionDraft } from "./decision-draft.ts";
import { bodyFromDraftAs, type RequestProtocol } from "./protocol-body.ts";

/** The request the editor stands for now, or why there is none (JSON that does not parse, a draft that cannot be sent). */
export type RequestBody = { body: Record<string, unknown>; problem: null } | { body: null; problem: string };

/** The form is sent in the chosen protocol, with the endpoint's name as its `model` where the protocol has one. */
export function requestBodyOf(
  tab: "form" | "json",
  draft: DecisionDraft,
  json: string,
  form: { protocol: RequestProtocol; model: string },
): RequestBody {
  try {
    if (tab === "form") return { body: bodyFromDraftAs(form.protocol, draft, form.model), problem: null };
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (cause) {
      return { body: null, problem: `The request JSON does not parse: ${(cause as Error).message}` };
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      return { body: null, problem: "The request must be a JSON object." };
    }
    return { body: parsed as Record<string, unknown>, problem: null };
  } catch (cause) {
    return { body: null, problem: (cause as Error).message };
  }
}

/**
 * What the page shows of the last Run: the body's problem when it could not be sent, otherwise the request's
 * failure or its answer. Never an earlier request's outcome beside a later body problem.
 */
export function lastRunShown<Failure, Answer>(
  bodyProblem: string | null,
  run: { error: Failure | null; data: Answer | undefined },
):
  | { bodyProblem: string; error: null; data: undefined }
  | { bodyProblem: null; error: Failure | null; data: Answer | undefined } {
  return bodyProblem !== null
    ? { bodyProblem, error: null, data: undefined }
    : { bodyProblem: null, error: run.error, data: run.data };
}

import type { Decision } from "@decision-console/adapter/contract";

export type OptionDraft = { key: string; id: string; description: string };
export type QuestionDraft = { key: string; id: string; question: string; options: OptionDraft[] };
/** The form's view of a decision request: one state shared by one or more questions. */
export type DecisionDraft = { state: string; stateIsJson: boolean; questions: QuestionDraft[] };

let nextKey = 0;
export function draftKey(): string {
  nextKey += 1;
  return `k${nextKey}`;
}

export function emptyOption(): OptionDraft {
  return { key: draftKey(), id: "", description: "" };
}

/** A form draft of questions that share one state (shown as written when text, else as JSON). */
export function draftOf(
  state: unknown,
  questions: { id: string; question: string; options: { id: string; description: string }[] }[],
): DecisionDraft {
  return {
    state: typeof state === "string" ? state : JSON.stringify(state, null, 2),
    stateIsJson: typeof state !== "string",
    questions: questions.map((question) => ({
      key: draftKey(),
      id: question.id,
      question: question.question,
      options: question.options.map((option) => ({ key: draftKey(), id: option.id, description: option.description })),
    })),
  };
}

/** A form draft from a decision request body, or null when the body is not one the form can show. */
export function draftFromBody(body: Record<string, unknown>): DecisionDraft | null {
  const decisions = (body.decision ? [body.decision] : body.decisions) as Decision[] | undefined;
  if (!Array.isArray(decisions) || decisions.length === 0) return null;
  return draftOf(decisions[0]?.state, decisions);
}

/** The draft's questions as decisions sharing its state. Throws on a state that is not JSON. */
export function decisionsFromDraft(draft: DecisionDraft): Decision[] {
  let state: unknown = draft.state;
  if (draft.stateIsJson) {
    try {
      state = JSON.parse(draft.state);
    } catch (cause) {
      throw new Error(`The state is marked as JSON but does not parse: ${(cause as Error).message}`);
    }
  }
  return draft.questions.map((question) => ({
    id: question.id,
    state: state as Decision["state"],
    question: question.question,
    options: question.options.map((option) => ({ id: option.id, description: option.description })),
  }));
}

/** `{decision}` for one question, `{decisions}` (shared state) for several. Throws on a state that is not JSON. */
export function bodyFromDraft(draft: DecisionDraft): Record<string, unknown> {
  const decisions = decisionsFromDraft(draft);
  return decisions.length === 1 ? { decision: decisions[0] } : { decisions };
}

export function moveItem<T>(items: T[], index: number, step: -1 | 1): T[] {
  const target = index + step;
  if (target < 0 || target >= items.length) return items;
  const next = [...items];
  [next[index], next[target]] = [next[target] as T, next[index] as T];
  return next;
}

import type { FormProblems } from "./schema-problems.ts";

/** What a person did with a form so far: the fields they typed in, and whether they tried to submit it. */
export interface FormTouch<Field extends string> {
  readonly edited: ReadonlySet<Field>;
  readonly submitted: boolean;
}

export const untouched: FormTouch<never> = { edited: new Set(), submitted: false };

/**
 * The problems a form shows now: a field's own as soon as it was typed in (checked as the person types), every
 * field's once a submit was tried, and the summary, which also names problems tied to no field, only then.
 */
export function shownProblems<Field extends string>(
  problems: FormProblems<Field>,
  touch: FormTouch<Field>,
): FormProblems<Field> {
  if (touch.submitted) return problems;
  const fields: Partial<Record<Field, string>> = {};
  for (const field of touch.edited) {
    const problem = problems.fields[field];
    if (problem !== undefined) fields[field] = problem;
  }
  return { fields, summary: [] };
}

export function withEdited<Field extends string>(touch: FormTouch<Field>, field: Field): FormTouch<Field> {
  return touch.edited.has(field) ? touch : { ...touch, edited: new Set([...touch.edited, field]) };
}

/** A submit is allowed only when the form has no problem at all, shown or not. */
export function canSubmit(problems: FormProblems<string>): boolean {
  return problems.summary.length === 0;
}

import { plainIssueText, type RawIssue } from "@/contract/http/plain-issues.ts";

/** A zod issue as far as a form needs it; a type only, so a page that uses this module gains no zod. */
export interface SchemaIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** Something with zod's `safeParse`: the request schema a form's input is checked against. */
export interface CheckingSchema {
  safeParse(
    input: unknown,
    params: { error: (issue: RawIssue) => string | undefined },
  ): { success: true } | { success: false; error: { issues: readonly SchemaIssue[] } };
}

/** Which form field a request path comes from, e.g. "compute.pools" → "gpuPools"; the longest listed prefix wins. */
export type FieldsByPath<Field extends string> = Readonly<Record<string, Field>>;

export interface FormProblems<Field extends string> {
  /** Each field's first problem, in the schema's words (plain words where it states none), to show at the field. */
  fields: Partial<Record<Field, string>>;
  /** Every problem once, for the summary: "<field label>: <message>", or "<path>: <message>" tied to no field. */
  summary: string[];
}

function fieldOf<Field extends string>(path: readonly PropertyKey[], fieldsByPath: FieldsByPath<Field>) {
  for (let length = path.length; length > 0; length--) {
    const field = fieldsByPath[path.slice(0, length).map(String).join(".")];
    if (field !== undefined) return field;
  }
  return undefined;
}

export function problemsFromIssues<Field extends string>(
  issues: readonly SchemaIssue[],
  fieldsByPath: FieldsByPath<Field>,
  labels: Readonly<Record<Field, string>>,
): FormProblems<Field> {
  const problems: FormProblems<Field> = { fields: {}, summary: [] };
  for (const issue of issues) {
    const field = fieldOf(issue.path, fieldsByPath);
    if (field !== undefined) problems.fields[field] ??= issue.message;
    const named = field !== undefined ? labels[field] : issue.path.map(String).join(".");
    addToSummary(problems, named ? `${named}: ${issue.message}` : issue.message);
  }
  return problems;
}

/** The problems `schema` finds in `input`, each at its field, in plain words where the schema gives no message. */
export function schemaProblems<Field extends string>(
  schema: CheckingSchema,
  input: unknown,
  fieldsByPath: FieldsByPath<Field>,
  labels: Readonly<Record<Field, string>>,
): FormProblems<Field> {
  const parsed = schema.safeParse(input, { error: plainIssueText });
  return parsed.success ? { fields: {}, summary: [] } : problemsFromIssues(parsed.error.issues, fieldsByPath, labels);
}

/** A problem the schema cannot see (one that needs the endpoint, say), at `field` when it has one. */
export function addProblem<Field extends string>(
  problems: FormProblems<Field>,
  message: string,
  at?: { field: Field; label: string },
): void {
  if (at) problems.fields[at.field] ??= message;
  addToSummary(problems, at ? `${at.label}: ${message}` : message);
}

function addToSummary(problems: FormProblems<string>, line: string) {
  if (!problems.summary.includes(line)) problems.summary.push(line);
}

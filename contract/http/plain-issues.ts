/**
 * Plain words for the checks a schema states without a message of its own (a number's bounds, a whole number, an
 * option, a missing field), in place of zod's default text ("Too small: expected number to be >=1"). Passed to
 * `safeParse(input, { error: plainIssueText })`: a message the schema gives itself still wins.
 */

/** The parts of a zod issue these words need; structural, so this module imports no zod. */
export interface RawIssue {
  readonly code?: string;
  readonly input?: unknown;
  readonly expected?: string;
  readonly origin?: string;
  readonly minimum?: number | bigint;
  readonly maximum?: number | bigint;
  readonly inclusive?: boolean;
  readonly values?: readonly unknown[];
  readonly keys?: readonly string[];
  readonly options?: readonly unknown[];
}

const sized: Record<string, [one: string, many: string]> = {
  string: ["character", "characters"],
  array: ["item", "items"],
  set: ["item", "items"],
};

function count(value: number | bigint, origin: string | undefined): string {
  const units = origin ? sized[origin] : undefined;
  if (!units) return String(value);
  return `${value} ${Number(value) === 1 ? units[0] : units[1]}`;
}

function typeWords(issue: RawIssue): string | undefined {
  if (issue.input === undefined || issue.input === null) return "Required.";
  switch (issue.expected) {
    case "number":
      return "Enter a number.";
    case "int":
      return "Must be a whole number.";
    case "string":
      return "Must be text.";
    case "boolean":
      return "Must be true or false.";
    case "array":
      return "Must be a list.";
    default:
      return undefined;
  }
}

function smallWords({ origin, minimum, inclusive }: RawIssue): string | undefined {
  if (minimum === undefined) return undefined;
  if (origin === "string" && Number(minimum) === 1 && inclusive !== false) return "Required.";
  return inclusive === false
    ? `Must be above ${count(minimum, origin)}.`
    : `Must be at least ${count(minimum, origin)}.`;
}

function bigWords({ origin, maximum, inclusive }: RawIssue): string | undefined {
  if (maximum === undefined) return undefined;
  return inclusive === false
    ? `Must be below ${count(maximum, origin)}.`
    : `Must be at most ${count(maximum, origin)}.`;
}

const listed = (values: readonly unknown[]) => values.map((value) => String(value)).join(", ");

/** A zod error map: plain words for the issue, or undefined to leave it to zod. */
export function plainIssueText(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      return typeWords(issue);
    case "too_small":
      return smallWords(issue);
    case "too_big":
      return bigWords(issue);
    case "invalid_value":
      return issue.values && issue.values.length > 0 ? `Must be one of: ${listed(issue.values)}.` : undefined;
    case "invalid_union":
      return issue.options && issue.options.length > 0 ? `Must be one of: ${listed(issue.options)}.` : undefined;
    case "unrecognized_keys":
      return issue.keys ? `Not a field of this request: ${issue.keys.join(", ")}.` : undefined;
    default:
      return undefined;
  }
}

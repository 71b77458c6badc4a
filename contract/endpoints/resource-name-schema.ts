import { z } from "zod";
import { nameProblem } from "./resource-name.ts";

export { MAX_RESOURCE_NAME_LENGTH, resourceNamePattern } from "./resource-name.ts";

/**
 * A SageMaker name of `pattern` and at most `max` characters, with one message for each problem: a name that is too
 * long stops at its length (the pattern alone would allow a longer one, since `-*` repeats, so both are checked),
 * and the message is nameProblem's.
 */
export function sageMakerNameSchema(pattern: RegExp, max: number) {
  const message = (issue: { input?: unknown }) => nameProblem(String(issue.input ?? ""), pattern, max) ?? undefined;
  return z.string().max(max, { error: message, abort: true }).regex(pattern, { error: message });
}

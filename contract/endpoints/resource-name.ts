/** SageMaker's rule for endpoint, endpoint config and model names (its API reference: this pattern, at most 63). */
export const resourceNamePattern = /^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$/;
export const MAX_RESOURCE_NAME_LENGTH = 63;

/** What a name of `pattern`, at most `max` characters, may hold, as a field's hint says it. */
export function nameRule(max: number): string {
  return `1-${max} letters, digits and hyphens, starting and ending with a letter or digit`;
}

/**
 * The one problem a person should fix first in a SageMaker name, in plain words, or null: empty, then too long
 * (the pattern alone would allow a longer one, since `-*` repeats), then a character or an edge the pattern refuses.
 */
export function nameProblem(name: string, pattern: RegExp, max: number): string | null {
  if (name === "") return `Give a name: ${nameRule(max)}.`;
  if (name.length > max) return `At most ${max} characters; this one has ${name.length}.`;
  if (!pattern.test(name)) return "Only letters, digits and hyphens, starting and ending with a letter or digit.";
  return null;
}

/**
 * The prefix the console's IAM policy allows in names (CONSOLE_RESOURCE_PREFIX), as a form checks it before the
 * server does; null when `prefix` is null or the name has it.
 */
export function namePrefixProblem(name: string, prefix: string | null, max: number): string | null {
  if (!prefix || name.startsWith(prefix)) return null;
  return `Must start with "${prefix}" (the prefix the console's IAM policy allows) and be at most ${max} characters.`;
}

export function isResourceName(name: string): boolean {
  return nameProblem(name, resourceNamePattern, MAX_RESOURCE_NAME_LENGTH) === null;
}

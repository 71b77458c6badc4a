const cache = new Map<string, RegExp>();

/** IAM's two wildcards: `*` any run of characters (none included), `?` exactly one; everything else literal. */
export function globMatches(pattern: string, value: string, ignoreCase = false): boolean {
  const key = `${ignoreCase ? "i" : "c"}${pattern}`;
  let regex = cache.get(key);
  if (!regex) {
    const source = pattern
      .split("")
      .map((char) =>
        char === "*" ? "[\\s\\S]*" : char === "?" ? "[\\s\\S]" : char.replace(/[\\^$.|+()[\]{}]/g, "\\$&"),
      )
      .join("");
    regex = new RegExp(`^${source}$`, ignoreCase ? "iu" : "u");
    cache.set(key, regex);
  }
  return regex.test(value);
}

/** `arn:partition:service:region:account:resource`; the resource part keeps its own colons. */
export function arnSegments(arn: string): string[] | undefined {
  const parts = arn.split(":");
  if (parts.length < 6 || parts[0] !== "arn") return undefined;
  return [...parts.slice(0, 5), parts.slice(5).join(":")];
}

/**
 * How IAM matches an ARN against a Resource entry or an ArnLike/ArnEquals value: each of the six segments is
 * matched on its own, so a wildcard never spans a segment (except inside the resource part), case-sensitively.
 * A lone `*` matches every resource, including the `*` of actions that have no resource type.
 */
export function arnMatches(pattern: string, arn: string): boolean {
  if (pattern === "*") return true;
  const wanted = arnSegments(pattern);
  const actual = arnSegments(arn);
  if (!wanted || !actual) return false;
  return wanted.every((segment, index) => globMatches(segment, actual[index] ?? ""));
}

/** Actions are matched case-insensitively (`sagemaker:describe*` covers `sagemaker:DescribeEndpoint`). */
export function actionMatches(pattern: string, action: string): boolean {
  return globMatches(pattern, action, true);
}

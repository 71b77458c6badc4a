import { AwsError } from "../wire/aws-error.ts";

/**
 * CloudWatch Logs filter patterns for unstructured events, the subset local FilterLogEvents serves (CloudWatch Logs
 * User Guide, "Filter pattern syntax": matching terms in unstructured log events):
 * - `ERROR Exception`: every term must appear; terms are case-sensitive;
 * - `"exact phrase"`: a quoted term, for terms with spaces or other non-alphanumeric characters;
 * - `?ERROR ?WARN`: any of the `?` terms must appear;
 * - `ERROR -Exiting`: events with ERROR and without Exiting;
 * - an empty pattern matches every event.
 * JSON patterns (`{ $.field = ... }`), space-delimited patterns (`[ip, user, ...]`) and regular expressions
 * (`%...%`) are not served locally: they are refused with InvalidParameterException rather than matched wrongly.
 */
export type LogFilter = (message: string) => boolean;

interface Term {
  text: string;
  kind: "all" | "any" | "none";
}

function unsupported(pattern: string, what: string): AwsError {
  return new AwsError(
    "InvalidParameterException",
    `Invalid filter pattern '${pattern}': ${what} are not supported by local mode, which serves terms, "quoted phrases", ?any-of and -excluded terms.`,
  );
}

function terms(pattern: string): Term[] {
  const found: Term[] = [];
  const token = /([?-]?)(?:"((?:[^"\\]|\\.)*)"|([^\s"]+))/y;
  let at = 0;
  while (at < pattern.length) {
    if (/\s/.test(pattern[at] ?? "")) {
      at++;
      continue;
    }
    token.lastIndex = at;
    const match = token.exec(pattern);
    if (!match) {
      throw new AwsError("InvalidParameterException", `Invalid filter pattern '${pattern}': unbalanced quotes.`);
    }
    at = token.lastIndex;
    const text = match[2] !== undefined ? match[2].replace(/\\(.)/g, "$1") : (match[3] ?? "");
    if (text === "") continue;
    found.push({ text, kind: match[1] === "?" ? "any" : match[1] === "-" ? "none" : "all" });
  }
  return found;
}

export function logFilter(pattern: string | undefined): LogFilter {
  const trimmed = (pattern ?? "").trim();
  if (trimmed === "") return () => true;
  if (trimmed.startsWith("{")) throw unsupported(trimmed, "JSON filter patterns");
  if (trimmed.startsWith("[")) throw unsupported(trimmed, "space-delimited filter patterns");
  if (/(^|\s)[?-]?%/.test(trimmed)) throw unsupported(trimmed, "regular expressions (%...%)");
  const parsed = terms(trimmed);
  const all = parsed.filter((t) => t.kind === "all").map((t) => t.text);
  const any = parsed.filter((t) => t.kind === "any").map((t) => t.text);
  const none = parsed.filter((t) => t.kind === "none").map((t) => t.text);
  if (any.length > 0 && all.length + none.length > 0) {
    throw unsupported(trimmed, "?terms mixed with required or excluded terms");
  }
  return (message) =>
    all.every((t) => message.includes(t)) &&
    (any.length === 0 || any.some((t) => message.includes(t))) &&
    !none.some((t) => message.includes(t));
}

import { validation } from "../wire/aws-error.ts";

/** SageMaker's List* paging: MaxResults (or the operation's default) items after the offset NextToken carries. */
export function page<T>(items: T[], input: Record<string, unknown>, defaultSize: number) {
  const max = input.MaxResults === undefined ? defaultSize : Number(input.MaxResults);
  const offset = typeof input.NextToken === "string" ? Number.parseInt(input.NextToken, 10) : 0;
  if (!Number.isInteger(offset) || offset < 0) throw validation("Invalid pagination token.");
  const slice = items.slice(offset, offset + max);
  return { slice, nextToken: offset + max < items.length ? String(offset + max) : undefined };
}

/** A List* time filter (CreationTimeAfter/Before and the like, epoch seconds): strictly between the bounds given. */
export function inTimeRange(value: number | null, after: unknown, before: unknown): boolean {
  const at = value ?? 0;
  return (typeof after !== "number" || at > after) && (typeof before !== "number" || at < before);
}

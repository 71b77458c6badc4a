/**
 * The message of an adapter error body in any of the shapes its APIs answer with: the adapter's own
 * `{"error": string}` (decisions, chat), TypeSafe's `{"detail": {message}}` and 422 `{"detail": [{loc, msg}]}`
 * (/v1/systemone), OpenAI's `{"error": {message}}` (/v1/decisions). Null when the body is none of them.
 */
export function adapterErrorMessage(body: unknown): string | null {
  if (typeof body !== "object" || body === null) return null;
  const { error, detail } = body as { error?: unknown; detail?: unknown };
  if (typeof error === "string") return error;
  if (typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string") {
    return (error as { message: string }).message;
  }
  if (typeof detail === "object" && detail !== null && typeof (detail as { message?: unknown }).message === "string") {
    return (detail as { message: string }).message;
  }
  if (Array.isArray(detail)) {
    const parts = detail.flatMap((entry: { loc?: unknown; msg?: unknown }) => {
      if (typeof entry?.msg !== "string") return [];
      const path = Array.isArray(entry.loc) ? entry.loc.filter((part) => part !== "body").join(".") : "";
      return [path ? `${path}: ${entry.msg}` : entry.msg];
    });
    return parts.length > 0 ? parts.join("; ") : null;
  }
  return null;
}

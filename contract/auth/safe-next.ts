/**
 * Where a browser may be sent after signing in: `next` only if, read by the URL parser against `origin` as a
 * browser reads a Location (tabs and newlines dropped, `\` taken for `/`), it stays on that origin. The result is
 * the path, query and fragment, never `//…` (which a browser would take for another host); else `fallback`.
 * Pure, so the login page and the sign-in routes share it.
 */
export function safeNext(next: string | null | undefined, origin: string, fallback = "/"): string {
  if (!next) return fallback;
  let target: URL;
  try {
    target = new URL(next, origin);
  } catch {
    return fallback;
  }
  if (target.origin !== new URL(origin).origin) return fallback;
  const path = `${target.pathname}${target.search}${target.hash}`;
  return path.startsWith("//") ? fallback : path;
}

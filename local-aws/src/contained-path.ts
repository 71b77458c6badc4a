import path from "node:path";

/** A path built from user data (an object key, a tar entry, a resource name) that would leave its directory. */
export class PathEscapeError extends Error {
  constructor(
    readonly directory: string,
    readonly relative: string,
  ) {
    super(`"${relative}" does not stay inside ${directory}`);
    this.name = "PathEscapeError";
  }
}

/**
 * `segments` resolved under `directory`, refused unless the result lies strictly inside it: `..`, absolute
 * segments and NUL bytes cannot make local mode touch a file elsewhere. Every path local mode derives from user
 * data goes through here.
 */
export function containedPath(directory: string, ...segments: string[]): string {
  const base = path.resolve(directory);
  const relative = segments.join("/");
  if (relative.includes("\0")) throw new PathEscapeError(base, relative.replaceAll("\0", "\\0"));
  const resolved = path.resolve(base, ...segments);
  const inside = path.relative(base, resolved);
  if (inside === "" || inside === ".." || inside.startsWith(`..${path.sep}`) || path.isAbsolute(inside)) {
    throw new PathEscapeError(base, relative);
  }
  return resolved;
}

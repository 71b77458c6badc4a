import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

interface IgnorePattern {
  regex: RegExp;
  /** `!pattern`: lets back in what an earlier pattern left out. */
  exception: boolean;
}

/** A .dockerignore pattern as Docker's pattern matcher compiles it: `**` spans folders, `*` and `?` stay within one. */
function compile(pattern: string): RegExp {
  let source = "";
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === "*" && pattern[index + 1] === "*") {
      index++;
      if (pattern[index + 1] === "/") index++;
      source += index === pattern.length - 1 ? ".*" : "(.*/)?";
    } else if (char === "*") {
      source += "[^/]*";
    } else if (char === "?") {
      source += "[^/]";
    } else if (char === "\\" && index + 1 < pattern.length) {
      index++;
      source += `\\${pattern[index]}`;
    } else {
      source += /[.+^${}()|[\]\\]/.test(char) ? `\\${char}` : char;
    }
  }
  return new RegExp(`^${source}$`);
}

export function parseDockerignore(text: string): IgnorePattern[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const exception = line.startsWith("!");
      const pattern = (exception ? line.slice(1) : line).trim().replace(/^\/+/, "").replace(/\/+$/, "");
      return { regex: compile(pattern), exception };
    });
}

/**
 * Whether Docker leaves `file` (relative, `/`-separated) out of the build context: the last pattern that matches the
 * file or one of its parent folders decides.
 */
export function isIgnored(patterns: readonly IgnorePattern[], file: string): boolean {
  const parents = file.split("/").slice(0, -1);
  const candidates = [file, ...parents.map((_, index) => parents.slice(0, index + 1).join("/"))];
  let ignored = false;
  for (const pattern of patterns) {
    if (pattern.exception !== ignored) continue;
    if (candidates.some((candidate) => pattern.regex.test(candidate))) ignored = !pattern.exception;
  }
  return ignored;
}

/**
 * The files `docker build -f <dockerfile> .` would send from `repoRoot`, relative and sorted: the working tree's files
 * (git's view, tracked or not, less what git ignores) that `<dockerfile>.dockerignore` lets through.
 */
export function contextFiles(repoRoot: string, dockerfile: string): string[] {
  const ignoreFile = join(repoRoot, `${dockerfile}.dockerignore`);
  const patterns = existsSync(ignoreFile) ? parseDockerignore(readFileSync(ignoreFile, "utf8")) : [];
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: repoRoot,
    maxBuffer: 64 * 1024 * 1024,
  })
    .toString()
    .split("\0")
    .filter(Boolean);
  return [...new Set(listed)]
    .filter((file) => !isIgnored(patterns, file))
    .filter((file) => existsSync(join(repoRoot, file)) && statSync(join(repoRoot, file)).isFile())
    .sort();
}

import fs from "node:fs";
import path from "node:path";

/** Where the console's code lives; the scan covers these, less `allowedFiles` and tests. */
export const scannedRoots = [
  "app",
  "components",
  "contract",
  "server",
  "scripts",
  "bench",
  "adapter/bench",
  "proxy.ts",
  "instrumentation.ts",
  "next.config.ts",
];

/** Files that may read the environment as they like, and why. */
export const allowedFiles: Record<string, string> = {
  "server/config.ts": "the console's settings, parsed and checked in one place",
  "scripts/start.ts": "npm start: decides the mode from the AWS configuration and gives its children their environment",
  "scripts/system-parts/parts.ts":
    "the system parts npm start and npm test need, found where the machine has them: PATH, PYTHON, CHROMIUM_PATH",
  "scripts/system-parts/ensure.ts":
    "installs the missing system parts with apt-get (PATH, and the environment it passes apt-get), before any console runs",
  "instrumentation.ts":
    "NEXT_RUNTIME: Next.js inlines it when it builds; the standalone server (the console image) never sets it at run time",
  "components/playground/sdk-snippets.ts":
    "reads nothing: it writes the TypeScript snippet an application runs, which takes its gateway key from its own environment",
  "adapter/bench/bench-files.ts":
    "BENCH_OUT: the one output folder that every benchmark, and the tests that run them, share (not a per-run knob)",
};
/** Folders out of the rule: the local AWS emulator reads its own variables (LOCAL_*), as AWS's services have theirs. */
export const allowedFolders = ["local-aws/"];

/**
 * Reads of `process.env` in `source`, as `line: text`. Not reads: spreading the whole environment into a child's
 * (`...process.env`), npm's INIT_CWD (the folder a command was typed in), and setting a variable for a child.
 */
export function environmentReads(source: string): string[] {
  const found: string[] = [];
  const lines = source.split("\n");
  lines.forEach((line, index) => {
    const code = line.replace(/\/\/.*$/, "");
    if (/^\s*\*/.test(code)) return;
    for (const match of code.matchAll(/process\s*(?:\.\s*env\b|\[\s*["'`]env["'`]\s*\])/g)) {
      const before = code.slice(0, match.index);
      const after = code.slice(match.index + match[0].length);
      if (/\.\.\.\s*$/.test(before)) continue;
      if (/^\.INIT_CWD\b/.test(after)) continue;
      if (/^\.[A-Z0-9_]+\s*=(?!=)/.test(after)) continue;
      found.push(`${index + 1}: ${line.trim()}`);
    }
    if (
      /\{[^}]*\benv\b[^}]*\}\s*=\s*process\b/.test(code) ||
      /import\s*\{[^}]*\benv\b[^}]*\}\s*from\s*["'](node:)?process["']/.test(code)
    ) {
      found.push(`${index + 1}: ${line.trim()}`);
    }
  });
  return found;
}

function sourceFiles(root: string, entry: string): string[] {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return [];
  if (fs.statSync(full).isFile()) return [entry];
  return fs.readdirSync(full, { withFileTypes: true }).flatMap((child) => {
    if (child.name === "node_modules" || child.name === "out") return [];
    const relative = path.join(entry, child.name);
    if (child.isDirectory()) return sourceFiles(root, relative);
    return /\.(ts|tsx|mts|mjs|js)$/.test(child.name) && !/\.(test|spec)\.tsx?$/.test(child.name) ? [relative] : [];
  });
}

/** Every read outside the allowed files, as `file:line: text`. */
export function readsOutsideConfig(root: string): string[] {
  return scannedRoots
    .flatMap((entry) => sourceFiles(root, entry))
    .filter((file) => !(file in allowedFiles) && !allowedFolders.some((folder) => file.startsWith(folder)))
    .flatMap((file) =>
      environmentReads(fs.readFileSync(path.join(root, file), "utf8")).map((read) => `${file}:${read}`),
    );
}

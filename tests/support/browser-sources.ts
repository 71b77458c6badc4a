import fs from "node:fs";
import path from "node:path";

/** The repository root, for tests that scan its files. */
export const repoRoot = path.resolve(import.meta.dirname, "../..");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes(".test.") ? [file] : [];
  });
}

/** Every non-test .ts/.tsx file of the browser code (components/ and app/), as absolute paths. */
export const browserSources = (): string[] => [
  ...sources(path.join(repoRoot, "components")),
  ...sources(path.join(repoRoot, "app")),
];

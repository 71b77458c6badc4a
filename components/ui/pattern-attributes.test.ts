import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/** Every `pattern="…"` attribute written in the console's components and pages, with the file it is in. */
function patternAttributes(): { file: string; pattern: string }[] {
  return ["components", "app"].flatMap((folder) =>
    fs
      .readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".tsx"))
      .flatMap((entry) => {
        const file = path.join(entry.parentPath, entry.name);
        const source = fs.readFileSync(file, "utf8");
        return [...source.matchAll(/\bpattern="([^"]*)"/g)].map((match) => ({
          file: path.relative(root, file),
          pattern: match[1] ?? "",
        }));
      }),
  );
}

describe("the forms' pattern attributes", () => {
  it("are found (the check below reads something)", () => {
    expect(patternAttributes().length).toBeGreaterThan(0);
  });

  it("compile as browsers compile them, with the v flag (HTML: ^(?:pattern)$ with v)", () => {
    const invalid = patternAttributes().filter(({ pattern }) => {
      try {
        new RegExp(`^(?:${pattern})$`, "v");
        return false;
      } catch {
        return true;
      }
    });
    expect(invalid).toEqual([]);
  });
});

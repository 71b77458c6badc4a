import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const biome = path.join(root, "node_modules/.bin/biome");

/** A scratch tree with this project's biome.json and nothing else, to lint one file at a chosen path. */
export function lintScratch(): {
  lint(file: string, source: string): { status: number | null; output: string };
  remove(): void;
} {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "lint-scratch-"));
  fs.copyFileSync(path.join(root, "biome.json"), path.join(scratch, "biome.json"));
  return {
    lint(file, source) {
      const full = path.join(scratch, file);
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, source);
      const result = spawnSync(biome, ["lint", "--vcs-enabled=false", file], { cwd: scratch, encoding: "utf8" });
      fs.rmSync(full);
      return { status: result.status, output: `${result.stdout}${result.stderr}` };
    },
    remove: () => fs.rmSync(scratch, { recursive: true, force: true }),
  };
}

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readFirstRunLimits, writeFirstRunLimits } from "./first-run-limits.ts";

const dirs: string[] = [];
function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "first-run-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the first run's limits", () => {
  it("are read back as npm start wrote them, private to the console's user", () => {
    const dir = dataDir();
    writeFirstRunLimits(dir, ["Builds cannot run: no bwrap on PATH."]);
    expect(readFirstRunLimits(dir)).toEqual(["Builds cannot run: no bwrap on PATH."]);
    expect(fs.statSync(path.join(dir, "first-run-limits.json")).mode & 0o077).toBe(0);
  });

  it("are none where npm start recorded none, or a start without limits came after", () => {
    const dir = dataDir();
    expect(readFirstRunLimits(dir)).toEqual([]);
    writeFirstRunLimits(dir, ["No trained model."]);
    writeFirstRunLimits(dir, []);
    expect(readFirstRunLimits(dir)).toEqual([]);
  });

  it("are none, not an error, when the file is not what npm start writes", () => {
    const dir = dataDir();
    fs.writeFileSync(path.join(dir, "first-run-limits.json"), '{"limits": 3');
    expect(readFirstRunLimits(dir)).toEqual([]);
    fs.writeFileSync(path.join(dir, "first-run-limits.json"), "[1, 2]");
    expect(readFirstRunLimits(dir)).toEqual([]);
  });
});

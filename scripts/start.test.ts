import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildIsStale, consoleMode } from "./start.ts";

describe("npm start: choosing the mode", () => {
  it("runs local mode when no AWS configuration is present", () => {
    expect(consoleMode({ PATH: "/usr/bin" })).toBe("local");
  });

  it("runs AWS mode with a region, a profile or credentials", () => {
    for (const name of ["AWS_REGION", "AWS_PROFILE", "AWS_ACCESS_KEY_ID", "AWS_WEB_IDENTITY_TOKEN_FILE"]) {
      expect(consoleMode({ [name]: "x" })).toBe("aws");
    }
  });

  it("obeys CONSOLE_MODE over detection and rejects other values", () => {
    expect(consoleMode({ CONSOLE_MODE: "local", AWS_REGION: "eu-west-1" })).toBe("local");
    expect(consoleMode({ CONSOLE_MODE: "aws" })).toBe("aws");
    expect(() => consoleMode({ CONSOLE_MODE: "cloud" })).toThrow(/must be "local" or "aws"/);
  });
});

describe("npm start: rebuilding the console", () => {
  let root: string;
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it("builds when .next is missing or older than a source file, not otherwise", () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "start-"));
    fs.mkdirSync(path.join(root, "app"));
    fs.writeFileSync(path.join(root, "app", "page.tsx"), "export default null;");
    expect(buildIsStale(root)).toBe(true);
    fs.mkdirSync(path.join(root, ".next"));
    fs.writeFileSync(path.join(root, ".next", "BUILD_ID"), "x");
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(root, ".next", "BUILD_ID"), later, later);
    expect(buildIsStale(root)).toBe(false);
    const latest = new Date(Date.now() + 120_000);
    fs.utimesSync(path.join(root, "app", "page.tsx"), latest, latest);
    expect(buildIsStale(root)).toBe(true);
  });
});

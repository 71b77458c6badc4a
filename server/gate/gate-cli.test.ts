import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/** The package's bin as a CI step calls it; these paths end before any AWS call (exit 2: usage or input). */
const repoRoot = path.resolve(import.meta.dirname, "../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gate-cli-"));

function decisionConsole(...args: string[]) {
  const run = spawnSync(process.execPath, ["bin/decision-console.mjs", ...args], {
    cwd: repoRoot,
    encoding: "utf8",
    env: { ...process.env, AWS_REGION: "us-east-1", AWS_ENDPOINT_URL: "http://127.0.0.1:9" },
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("npx decision-console", { timeout: 60_000 }, () => {
  it("prints the gate's usage and exits 0 for --help", () => {
    const run = decisionConsole("gate", "--help");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("exits 0 (pass), 1 (regression), 2 (usage or input error)");
  });

  it("exits 2 for a command it does not have", () => {
    const run = decisionConsole("deploy");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Unknown command "deploy"');
  });

  it("exits 2 naming each missing or bad flag", () => {
    const run = decisionConsole("gate", "--endpoint", "dc-candidate", "--alpha", "2");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--dataset: is required");
    expect(run.stderr).toContain("--alpha:");
    expect(run.stderr).toContain("give exactly one of --baseline-endpoint and --baseline-version");
  });

  it("exits 2 for a flag it does not know", () => {
    const run = decisionConsole("gate", "--max-accuracy-loss", "0.1");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--max-accuracy-loss");
  });

  it("exits 2 naming the bad rows of a dataset, before asking any endpoint", () => {
    const file = path.join(dir, "bad.jsonl");
    fs.writeFileSync(
      file,
      '{"id":"a","state":"s","question":"q","options":[{"id":"x","description":"X"}],"answer":"x"}\n',
    );
    const run = decisionConsole("gate", "--dataset", file, "--endpoint", "dc-a", "--baseline-endpoint", "dc-b");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/input error: The JSONL file has problems: line 1: /);
  });

  it("exits 2 for a dataset file it cannot read", () => {
    const run = decisionConsole(
      "gate",
      "--dataset",
      path.join(dir, "none.jsonl"),
      "--endpoint",
      "dc-a",
      "--baseline-endpoint",
      "dc-b",
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--dataset: cannot read");
  });
});

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/**
 * Every `bench:*` script of package.json, run once at its smallest size (the generated tiny model, one repeat),
 * as on a fresh clone: outputs go to an empty BENCH_OUT directory that does not exist yet. Each must exit 0 and
 * end its stdout with its JSON line, so no benchmark can rot unnoticed. A new `bench:*` script needs an entry
 * here. bench:peer runs only when its llama-server build is already cached (building it takes minutes).
 */

const repoRoot = path.resolve(import.meta.dirname, "..");
const scripts = Object.keys(
  (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { scripts: Record<string, string> })
    .scripts,
).filter((name) => name.startsWith("bench:"));

const SMALLEST: Record<string, { args: string[]; env?: Record<string, string> }> = {
  "bench:adapter": { args: ["--kind", "tiny", "--repeats", "1", "--per-stratum", "1"] },
  "bench:adapter-parallel": { args: ["--kind", "tiny", "--levels", "2", "--requests", "2", "--rounds", "1"] },
  "bench:evaluate": { args: ["--kind", "tiny", "--limit", "2", "--threads", "1"] },
  "bench:quality": { args: ["--limit", "1", "--threads", "1"] },
  "bench:batch": { args: ["--kind", "tiny", "--records", "4", "--instances", "1,2"] },
  "bench:load": { args: ["--kind", "tiny", "--requests", "4", "--clients", "1,2", "--parallel", "1"] },
  "bench:async": { args: ["--kind", "tiny", "--requests", "4", "--clients", "2", "--parallel", "1"] },
  "bench:update-load": { args: ["--kind", "tiny", "--instances", "2", "--clients", "2", "--wait", "1"] },
  "bench:monitoring": { args: ["--hours", "1", "--rate", "1", "--loads", "1", "--labels", "200"] },
  "bench:capture": { args: ["--kind", "tiny", "--requests", "4", "--warmup", "1"] },
  "bench:gateway": { args: ["--kind", "tiny", "--requests", "4", "--warmup", "1"] },
  "bench:shared-schedule": { args: ["--kind", "tiny", "--repeats", "1", "--states", "200", "--batches", "2"] },
  "bench:shared-costs": { args: ["--kind", "tiny", "--repeats", "2", "--states", "200", "--decisions", "2"] },
  "bench:peer": { args: ["--kind", "tiny", "--repeats", "1", "--lengths", "100", "--states", "200", "--batches", "2"] },
};

const peerCached = () => {
  const out = path.join(repoRoot, "bench/out");
  return existsSync(out) && readdirSync(out).some((name) => /^llama\.cpp-/.test(name));
};

const outDirectory = path.join(mkdtempSync(path.join(os.tmpdir(), "bench-scripts-")), "out");
afterAll(() => rmSync(path.dirname(outDirectory), { recursive: true, force: true }));

function run(script: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn("npm", ["run", "-s", script, "--", ...args], {
      cwd: repoRoot,
      env: { ...process.env, BENCH_OUT: outDirectory, ADAPTER_THREADS: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk;
    });
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe.concurrent("bench:* scripts at their smallest size", () => {
  it("has a smallest-size entry for every bench:* script", () => {
    expect(scripts.filter((name) => !(name in SMALLEST))).toEqual([]);
  });

  for (const script of scripts.filter((name) => name in SMALLEST)) {
    const skip = script === "bench:peer" && !peerCached();
    it.skipIf(skip)(
      `${script} runs and prints its JSON line${skip ? " (skipped: no llama-server build cached in bench/out/; run npm run bench:peer once)" : ""}`,
      { timeout: 180_000 },
      async () => {
        const { args, env } = SMALLEST[script]!;
        const { code, stdout, stderr } = await run(script, args, env);
        expect(code, stderr.slice(-2000)).toBe(0);
        const last = stdout.trim().split("\n").at(-1) ?? "";
        expect(() => JSON.parse(last), `last stdout line: ${last}`).not.toThrow();
        expect(typeof JSON.parse(last)).toBe("object");
      },
    );
  }
});

import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { REPO_ROOT } from "../../infra/local-stack/workspace-fixture.ts";

/** Writes the adapter's generated tiny GGUF (a real llama-shaped model with random weights) to `out`. */
export function generateTinyModel(out: string): Promise<void> {
  const tsx = pathToFileURL(createRequire(path.join(REPO_ROOT, "package.json")).resolve("tsx/esm")).href;
  const cli = path.join(REPO_ROOT, "adapter", "test", "support", "make-model.ts");
  fs.mkdirSync(path.dirname(out), { recursive: true });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", tsx, cli, "--kind", "tiny", "--out", out], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += String(chunk);
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`make-model failed (${code}): ${stderr.trim()}`)),
    );
  });
}

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LLAMA_CPP_DLC_ACCOUNTS } from "../../infra/cdk/llama-cpp-dlc.ts";

const root = path.resolve(import.meta.dirname, "../..");
const cfnLint = path.join(root, ".venv-tests/bin/cfn-lint");
const required = process.env.PYTHON_TESTS === "required";
const available = fs.existsSync(cfnLint);
if (!available) {
  const reason = fs.existsSync(path.join(root, ".venv-tests/SKIPPED"))
    ? fs.readFileSync(path.join(root, ".venv-tests/SKIPPED"), "utf8").trim()
    : "no .venv-tests (npm run py:env creates it)";
  console.warn(`cfn-lint: skipped: ${reason}`);
}

/** us-east-1 (the default) and every Region where the stack's LlamaCppDlcAccounts mapping offers the DLC. */
const regions = [...new Set(["us-east-1", ...Object.keys(LLAMA_CPP_DLC_ACCOUNTS)])];

const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "cfn-lint-"));
afterAll(() => fs.rmSync(outdir, { recursive: true, force: true }));

interface Finding {
  Level: string;
  Message: string;
  Rule: { Id: string };
  Location: { Path: (string | number)[] };
}

describe.skipIf(!available && !required)("cfn-lint (requirements/tests.txt) on the synthesised stack template", () => {
  it(`finds nothing in ${regions.length} Regions: us-east-1 and each the stack offers the llama.cpp DLC in`, () => {
    // The same synthesis as `npm run synth` and `cdk deploy`: infra/cdk/app.ts, with its defaults.
    const synth = spawnSync(path.join(root, "node_modules/.bin/tsx"), ["infra/cdk/app.ts"], {
      cwd: root,
      env: { ...process.env, CDK_OUTDIR: outdir },
      encoding: "utf8",
      timeout: 240_000,
    });
    expect(synth.stderr).toBe("");
    expect(synth.status).toBe(0);
    const templates = fs.readdirSync(outdir).filter((name) => name.endsWith(".template.json"));
    expect(templates).toEqual(["DecisionConsole.template.json"]);

    const lint = spawnSync(
      cfnLint,
      ["--format", "json", "--regions", ...regions, "--", ...templates.map((name) => path.join(outdir, name))],
      { encoding: "utf8", timeout: 240_000, maxBuffer: 64 * 1024 * 1024 },
    );
    expect(lint.stderr).toBe("");
    const findings = (JSON.parse(lint.stdout) as Finding[]).map(
      (f) => `${f.Level} ${f.Rule.Id} ${f.Location.Path.join("/")}: ${f.Message}`,
    );
    expect(findings).toEqual([]);
    expect(lint.status).toBe(0);
  }, 480_000);
});

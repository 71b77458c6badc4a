import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LLAMA_CPP_DLC_ACCOUNTS } from "../../contract/stack/llama-cpp-dlc.ts";
import { REGIONS_WITHOUT_CODEBUILD } from "../../infra/cdk/codebuild-regions.ts";
import { REGIONS_WITHOUT_COGNITO } from "../../infra/cdk/hosting/cognito-regions.ts";

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

/**
 * us-east-1 (the default) and every Region where the stack's LlamaCppDlcAccounts mapping offers the DLC, less those
 * without CodeBuild, which the stack refuses (codebuild-regions.ts: a synthesis error, and a template rule).
 */
const offered = [...new Set(["us-east-1", ...Object.keys(LLAMA_CPP_DLC_ACCOUNTS)])];
const refused: readonly string[] = REGIONS_WITHOUT_CODEBUILD;
const regions = offered.filter((region) => !refused.includes(region));

const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "cfn-lint-"));
afterAll(() => fs.rmSync(outdir, { recursive: true, force: true }));

interface Finding {
  Level: string;
  Message: string;
  Rule: { Id: string };
  Location: { Path: (string | number)[] };
}

describe.skipIf(!available && !required)("cfn-lint (requirements/tests.txt) on the synthesised stack template", () => {
  function lint(template: string, lintRegions: readonly string[]): { findings: string[]; status: number | null } {
    const run = spawnSync(cfnLint, ["--format", "json", "--regions", ...lintRegions, "--", template], {
      encoding: "utf8",
      timeout: 240_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(run.stderr).toBe("");
    const findings = (JSON.parse(run.stdout) as Finding[]).map(
      (f) => `${f.Level} ${f.Rule.Id} ${f.Location.Path.join("/")}: ${f.Message}`,
    );
    return { findings, status: run.status };
  }

  /** The same synthesis as `npm run synth` and `cdk deploy`: infra/cdk/app.ts, with `-c` context as given. */
  function synth(name: string, context: Record<string, string> = {}): { dir: string; templates: string[] } {
    const dir = path.join(outdir, name);
    const run = spawnSync(path.join(root, "node_modules/.bin/tsx"), ["infra/cdk/app.ts"], {
      cwd: root,
      env: { ...process.env, CDK_OUTDIR: dir, CDK_CONTEXT_JSON: JSON.stringify(context) },
      encoding: "utf8",
      timeout: 240_000,
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    return { dir, templates: fs.readdirSync(dir).filter((file) => file.endsWith(".template.json")) };
  }

  it(`finds nothing in ${regions.length} Regions: us-east-1 and each the stack offers the llama.cpp DLC in`, () => {
    const { dir, templates } = synth("default");
    expect(templates).toEqual(["DecisionConsole.template.json"]);

    const template = path.join(dir, templates[0]!);
    const supported = lint(template, regions);
    expect(supported.findings).toEqual([]);
    expect(supported.status).toBe(0);

    // The Regions the stack refuses are exactly those where cfn-lint's resource data has no CodeBuild project type,
    // so the list in codebuild-regions.ts follows the data this check uses rather than a copy of it.
    const unsupported = lint(template, refused);
    const missingTypes = new Set(
      unsupported.findings.map((finding) => /E3006 .*: Resource type '([^']+)' does not exist/.exec(finding)?.[1]),
    );
    expect([...missingTypes]).toEqual(["AWS::CodeBuild::Project"]);
    for (const region of refused) expect(unsupported.findings.some((f) => f.includes(`'${region}'`))).toBe(true);
  }, 480_000);

  it("finds nothing in the hosting stack (-c hosting=true) in the same Regions, signing in through any issuer", () => {
    const { dir, templates } = synth("hosting-issuer", { hosting: "true", signIn: "issuer" });
    expect(templates).toEqual(["DecisionConsole.template.json", "DecisionConsoleHosting.template.json"]);
    // The main stack's template too: it now exports what the hosting stack imports.
    for (const template of templates) {
      const linted = lint(path.join(dir, template), regions);
      expect(linted.findings).toEqual([]);
      expect(linted.status).toBe(0);
    }
  }, 480_000);

  it("finds nothing in the hosting stack with its Cognito user pool, but where CloudFormation has no Cognito", () => {
    const { dir } = synth("hosting-cognito", { hosting: "true" });
    const template = path.join(dir, "DecisionConsoleHosting.template.json");
    const withoutCognito: readonly string[] = REGIONS_WITHOUT_COGNITO;
    const supported = lint(
      template,
      regions.filter((region) => !withoutCognito.includes(region)),
    );
    expect(supported.findings).toEqual([]);
    expect(supported.status).toBe(0);

    // The Regions the template's rule refuses are exactly those where cfn-lint's data has no Cognito user pools.
    const unsupported = lint(template, withoutCognito);
    const missingTypes = new Set(
      unsupported.findings.map((finding) => /E3006 .*: Resource type '([^']+)' does not exist/.exec(finding)?.[1]),
    );
    expect([...missingTypes].every((type) => type?.startsWith("AWS::Cognito::"))).toBe(true);
    for (const region of withoutCognito) expect(unsupported.findings.some((f) => f.includes(`'${region}'`))).toBe(true);
  }, 480_000);
});

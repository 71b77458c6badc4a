import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App, Validations } from "aws-cdk-lib";
import { Bucket } from "aws-cdk-lib/aws-s3";
import { AwsSolutionsChecks } from "cdk-nag";
import { afterEach, describe, expect, it } from "vitest";
import { DecisionConsoleStack } from "./decision-console-stack.ts";

interface Report {
  pluginReports: { violations: { ruleName: string; violatingConstructs: { constructPath: string }[] }[] }[];
}

const outdirs: string[] = [];
afterEach(() => {
  for (const dir of outdirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Synthesises the stack with the AwsSolutions pack; returns the unacknowledged findings ("rule at construct"). */
function nagFindings(extend?: (stack: DecisionConsoleStack) => void): string[] {
  const outdir = mkdtempSync(join(tmpdir(), "cdk-nag-"));
  outdirs.push(outdir);
  const app = new App({ outdir });
  const stack = new DecisionConsoleStack(app, "DecisionConsole", { sageMakerNamePrefix: "dc-" });
  extend?.(stack);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  try {
    app.synth();
    return [];
  } catch {
    const report = JSON.parse(readFileSync(join(outdir, "validation-report.json"), "utf8")) as Report;
    return report.pluginReports.flatMap((plugin) =>
      plugin.violations.flatMap((v) => v.violatingConstructs.map((c) => `${v.ruleName} at ${c.constructPath}`)),
    );
  }
}

describe("cdk-nag AwsSolutions", () => {
  it("finds nothing in the stack that is not fixed or acknowledged with a written reason", () => {
    expect(nagFindings()).toEqual([]);
  }, 120_000);

  it("does report a finding the stack has not acknowledged (the check is live)", () => {
    const findings = nagFindings((stack) => new Bucket(stack, "Unlogged"));
    expect(findings.some((finding) => finding.startsWith("AwsSolutions-S1 at DecisionConsole/Unlogged"))).toBe(true);
  }, 120_000);
});

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App, Validations } from "aws-cdk-lib";
import { AwsSolutionsChecks } from "cdk-nag";

interface Report {
  pluginReports: { violations: { ruleName: string; violatingConstructs: { constructPath: string }[] }[] }[];
}

/**
 * Synthesises what `build` adds to a new app with cdk-nag's AwsSolutions pack; returns the findings nobody
 * acknowledged, as "rule at construct path" (none when synthesis succeeds).
 */
export function unacknowledgedNagFindings(build: (app: App) => void): string[] {
  const outdir = mkdtempSync(join(tmpdir(), "cdk-nag-"));
  try {
    const app = new App({ outdir });
    build(app);
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
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

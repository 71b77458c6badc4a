import { formatChange, formatFigure, formatP, type GateVerdict, regressions } from "./gate-verdict.ts";

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

/** The verdict as Markdown, for a pull request comment or `$GITHUB_STEP_SUMMARY`. */
export function markdownSummary(verdict: GateVerdict): string {
  const failed = regressions(verdict);
  const headline = failed.length
    ? `**Failed**: ${failed.map((check) => check.label).join(", ")} regressed beyond the limit (p < ${verdict.alpha}).`
    : `**Passed**: no regression beyond the limits (paired tests, p < ${verdict.alpha}).`;
  const rows = verdict.checks.map((check) => {
    const result = check.regressed ? "❌ regression" : check.skipped ? `⏭ skipped: ${check.skipped}` : "✅ pass";
    return `| ${cell(check.label)} | ${formatFigure(check, check.baseline)} | ${formatFigure(check, check.candidate)} | ${formatChange(check, check.degradation)} | ${formatChange(check, check.limit)} | ${check.test} | ${formatP(check.pValue)} | ${cell(result)} |`;
  });
  return [
    `## Decision gate: \`${cell(verdict.candidate)}\` against \`${cell(verdict.baseline)}\``,
    "",
    headline,
    "",
    `Dataset \`${cell(verdict.dataset)}\`, ${verdict.items} items, threshold ${verdict.threshold ?? "none"}, ${verdict.seconds.toFixed(1)} s.`,
    "",
    "| Check | Baseline | Candidate | Worse by | Limit | Test | p (one-sided) | Result |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}

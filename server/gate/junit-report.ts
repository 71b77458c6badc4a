import { describeCheck, type GateVerdict, regressions } from "./gate-verdict.ts";

const escapeXml = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");

/**
 * The verdict as JUnit XML, the format CI systems (GitHub Actions reporters, GitLab, Jenkins) read: one test suite,
 * one test case per check; a regression is a failure, a check that could not be made is skipped.
 */
export function junitReport(verdict: GateVerdict): string {
  const skipped = verdict.checks.filter((check) => check.skipped).length;
  const suiteName = `decision-console gate: ${verdict.candidate} vs ${verdict.baseline}`;
  const cases = verdict.checks.map((check) => {
    const open = `    <testcase classname="decision-console.gate" name="${escapeXml(check.label)}" time="0">`;
    const line = escapeXml(describeCheck(check));
    if (check.regressed) {
      return `${open}\n      <failure message="${line}" type="regression">${line}</failure>\n    </testcase>`;
    }
    if (check.skipped) return `${open}\n      <skipped message="${escapeXml(check.skipped)}"/>\n    </testcase>`;
    return `${open}\n      <system-out>${line}</system-out>\n    </testcase>`;
  });
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="decision-console gate" tests="${verdict.checks.length}" failures="${regressions(verdict).length}" skipped="${skipped}" time="${verdict.seconds.toFixed(3)}">`,
    `  <testsuite name="${escapeXml(suiteName)}" tests="${verdict.checks.length}" failures="${regressions(verdict).length}" errors="0" skipped="${skipped}" time="${verdict.seconds.toFixed(3)}">`,
    `    <properties>`,
    `      <property name="dataset" value="${escapeXml(verdict.dataset)}"/>`,
    `      <property name="items" value="${verdict.items}"/>`,
    `      <property name="alpha" value="${verdict.alpha}"/>`,
    `      <property name="threshold" value="${verdict.threshold ?? "none"}"/>`,
    `    </properties>`,
    ...cases,
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}

import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const repoRoot = path.resolve(import.meta.dirname, "..", "..", "..");
export const schemathesisBin = path.join(repoRoot, ".venv-tests", "bin", "schemathesis");

/** Why schemathesis cannot run here (the reason `.venv-tests/SKIPPED` gives), or null when it can. */
export function schemathesisMissing(): string | null {
  if (fs.existsSync(schemathesisBin)) return null;
  const skipped = path.join(repoRoot, ".venv-tests", "SKIPPED");
  return fs.existsSync(skipped)
    ? fs.readFileSync(skipped, "utf8").trim()
    : "no .venv-tests/bin/schemathesis (npm run py:env creates it)";
}

/**
 * The checks that mean: no 5xx, every status is one the document lists for the operation, and every answer has
 * the content type, headers and body schema the document gives that status; an invalid request is refused (4xx).
 */
export const conformanceChecks = [
  "not_a_server_error",
  "status_code_conformance",
  "content_type_conformance",
  "response_headers_conformance",
  "response_schema_conformance",
  "negative_data_rejection",
];

export interface SchemathesisRun {
  status: number | null;
  output: string;
  /** The test cases schemathesis generated and sent, from its summary line. */
  generated: number;
  /** The operations it selected and the ones it tested, from its summary. */
  selected: number;
  tested: number;
}

/** TOML for schemathesis.toml: a string, or a list of strings. */
const toml = (value: string | readonly string[]) =>
  typeof value === "string" ? JSON.stringify(value) : `[${value.map((v) => JSON.stringify(v)).join(", ")}]`;

export interface OperationRule {
  /** Why this rule exists, written into the configuration. */
  reason: string;
  include: Record<string, string | readonly string[]>;
  /** A fixed value, or a dictionary's values drawn with a probability (generated ones the rest of the time). */
  parameters?: Record<string, string | { dictionary: string; probability: number }>;
  mode?: "positive" | "negative";
}

const tomlValue = (value: string | { dictionary: string; probability: number }) =>
  typeof value === "string"
    ? toml(value)
    : `{ dictionary = ${toml(value.dictionary)}, probability = ${value.probability} }`;

/**
 * The statuses that mean an invalid request was refused: schemathesis's own list (less 5xx, which
 * not_a_server_error fails anyway), with 413 (a body over its limit) and 431 (Node's refusal of a request line and
 * headers over 16 KiB, which a long percent-encoded query within a parameter's maxLength can pass first).
 */
export const rejectionStatuses = [
  "400",
  "401",
  "403",
  "404",
  "405",
  "406",
  "409",
  "413",
  "415",
  "422",
  "428",
  "429",
  "431",
];

/** schemathesis.toml: what a refusal is, named value lists, then one `[[operations]]` table per rule. */
export function schemathesisConfig(
  rules: readonly OperationRule[],
  dictionaries: Record<string, readonly string[]> = {},
): string {
  const checks = `[checks.negative_data_rejection]\nexpected-statuses = ${toml(rejectionStatuses)}`;
  const lists = Object.entries(dictionaries).map(
    ([name, values]) => `[dictionaries.${name}]\nvalues = ${toml(values)}`,
  );
  const operations = rules.map((rule) => {
    const lines = [`# ${rule.reason}`, "[[operations]]"];
    for (const [key, value] of Object.entries(rule.include)) lines.push(`${key} = ${toml(value)}`);
    if (rule.mode) lines.push(`generation.mode = ${toml(rule.mode)}`);
    if (rule.parameters) {
      const pairs = Object.entries(rule.parameters).map(
        ([name, value]) => `${JSON.stringify(name)} = ${tomlValue(value)}`,
      );
      lines.push(`parameters = { ${pairs.join(", ")} }`);
    }
    return lines.join("\n");
  });
  return `${[checks, ...lists, ...operations].join("\n\n")}\n`;
}

/**
 * Runs `schemathesis run` to the end. Its whole output (a progress line per tick) goes to `logFile`; this process
 * prints what follows the progress: the failures, warnings and summary.
 */
export function runSchemathesis(args: readonly string[], logFile: string, timeoutMs: number): Promise<SchemathesisRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(schemathesisBin, args, {
      // Its crash cache (.schemathesis/) goes where it runs: the run's own folder, never the checkout.
      cwd: path.dirname(logFile),
      env: { ...process.env, NO_COLOR: "1", SCHEMATHESIS_TELEMETRY: "false" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const keep = (chunk: Buffer) => {
      output += chunk.toString("utf8");
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMs);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      fs.writeFileSync(logFile, output);
      const report = /^=+ (FAILURES|WARNINGS|SUMMARY) =+$/m.exec(output);
      console.log(report ? output.slice(report.index) : output.slice(-4000));
      resolve({ status, output, generated: generatedCount(output), ...operationCounts(output) });
    });
  });
}

/** `Test cases:` in schemathesis's summary: `1234 generated, 1234 passed`. */
export function generatedCount(output: string): number {
  const match = /Test cases:\s*(\d+) generated/.exec(output);
  return match ? Number(match[1]) : 0;
}

/** `Selected: 45/46` and `Tested: 45` in schemathesis's summary. */
export function operationCounts(output: string): { selected: number; tested: number } {
  const selected = /Selected:\s*(\d+)\//.exec(output);
  const tested = /Tested:\s*(\d+)/.exec(output);
  return { selected: selected ? Number(selected[1]) : 0, tested: tested ? Number(tested[1]) : 0 };
}

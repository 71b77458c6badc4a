import fs from "node:fs";
import path from "node:path";
import type { AwsClients } from "../aws/clients.ts";
import { type GateCheck, gateChecks, type PairedOutcome } from "./gate-checks.ts";
import { evaluateForGate } from "./gate-evaluation.ts";
import { asGateFailure, GateFailure } from "./gate-failure.ts";
import { GATE_USAGE, type GateOptions, parseGateOptions } from "./gate-options.ts";
import { describeCheck, type GateVerdict, regressions } from "./gate-verdict.ts";
import { junitReport } from "./junit-report.ts";
import { markdownSummary } from "./markdown-summary.ts";
import { registryBaseline } from "./registry-baseline.ts";

/** The gate's exit codes: what a CI step branches on. */
export const GATE_EXIT = { pass: 0, regression: 1, input: 2, infrastructure: 3 } as const;

export interface GateIo {
  /** Built on first use, so a usage error needs no AWS configuration. */
  clients: () => AwsClients;
  /** Where asynchronous endpoints' requests go (CONSOLE_ARTIFACT_BUCKET), read on first use too. */
  artifactBucket: () => string | null;
  out: (line: string) => void;
  err: (line: string) => void;
}

function pairsOf(baseline: PairedOutcome["baseline"][], candidate: PairedOutcome["candidate"][]): PairedOutcome[] {
  const byItem = new Map(baseline.map((outcome) => [outcome.itemId, outcome]));
  return candidate.map((outcome) => {
    const paired = byItem.get(outcome.itemId);
    if (!paired) throw new GateFailure("infrastructure", `The baseline has no result for item ${outcome.itemId}.`);
    return { baseline: paired, candidate: outcome };
  });
}

async function verdictOf(options: GateOptions, io: GateIo): Promise<GateVerdict> {
  const started = performance.now();
  const clients = io.clients();
  const { baseline } = options;
  let registry: Awaited<ReturnType<typeof registryBaseline>> | null = null;
  const evaluation = await evaluateForGate(clients, {
    datasetFile: options.dataset,
    endpoints: baseline.kind === "endpoint" ? [options.endpoint, baseline.name] : [options.endpoint],
    concurrency: options.concurrency,
    targetAccuracy: options.targetAccuracy,
    artifactBucket: io.artifactBucket(),
    beforeScoring: async (items) => {
      if (baseline.kind === "version") registry = await registryBaseline(clients, baseline.arn, items);
    },
  });
  const [candidate, endpointBaseline] = evaluation.sides;
  const base = registry ?? endpointBaseline;
  if (!candidate || !base) throw new GateFailure("infrastructure", "The evaluation returned no results.");
  const threshold = options.threshold ?? base.threshold;
  const checks: GateCheck[] = gateChecks(pairsOf(base.outcomes, candidate.outcomes), {
    limits: options.limits,
    alpha: options.alpha,
    threshold,
    bootstrap: options.bootstrap,
  });
  return {
    dataset: path.basename(options.dataset),
    items: evaluation.items.length,
    candidate: candidate.endpointName,
    baseline: base.endpointName,
    alpha: options.alpha,
    threshold,
    checks,
    seconds: (performance.now() - started) / 1000,
  };
}

/** Writes a report, creating its folder; `append` adds to the file, as `$GITHUB_STEP_SUMMARY` expects. */
function write(file: string, text: string, append = false) {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  if (append) fs.appendFileSync(file, text);
  else fs.writeFileSync(file, text);
}

/** `decision-console gate <flags>`: the verdict on stdout, the reports where asked, and the exit code. */
export async function runGate(argv: readonly string[], io: GateIo): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    io.out(GATE_USAGE);
    return GATE_EXIT.pass;
  }
  let options: GateOptions;
  try {
    options = parseGateOptions(argv);
  } catch (error) {
    io.err(`decision-console gate: ${(error as Error).message}\n\n${GATE_USAGE}`);
    return GATE_EXIT.input;
  }
  try {
    const verdict = await verdictOf(options, io);
    if (options.junit) write(options.junit, junitReport(verdict));
    if (options.summary) write(options.summary, markdownSummary(verdict), true);
    io.out(`decision-console gate: ${verdict.candidate} against ${verdict.baseline}, ${verdict.items} items`);
    for (const check of verdict.checks) io.out(`  ${describeCheck(check)}`);
    const failed = regressions(verdict);
    io.out(failed.length ? `FAILED: ${failed.length} regression(s)` : `PASSED in ${verdict.seconds.toFixed(1)} s`);
    return failed.length ? GATE_EXIT.regression : GATE_EXIT.pass;
  } catch (error) {
    const failure = asGateFailure(error);
    io.err(
      `decision-console gate: ${failure.kind === "input" ? "input error" : "infrastructure failure"}: ${failure.message}`,
    );
    return failure.kind === "input" ? GATE_EXIT.input : GATE_EXIT.infrastructure;
  }
}

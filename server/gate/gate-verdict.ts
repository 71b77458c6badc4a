import type { GateCheck } from "./gate-checks.ts";

/** What the gate compared and what it found: the input of its reports and of its exit code. */
export interface GateVerdict {
  dataset: string;
  items: number;
  candidate: string;
  baseline: string;
  alpha: number;
  threshold: number | null;
  checks: GateCheck[];
  seconds: number;
}

export const regressions = (verdict: GateVerdict) => verdict.checks.filter((check) => check.regressed);

/** A figure in the unit a person reads it in: shares as percentages, latency in ms. */
export function formatFigure(check: Pick<GateCheck, "metric">, value: number | null): string {
  if (value === null) return "n/a";
  if (check.metric === "p95Latency") return `${value.toFixed(0)} ms`;
  if (check.metric === "ece") return value.toFixed(4);
  return `${(value * 100).toFixed(1)} %`;
}

/** A degradation or limit in its unit: points for shares, a relative change for latency, plain for ECE. */
export function formatChange(check: Pick<GateCheck, "metric">, value: number | null): string {
  if (value === null) return "n/a";
  const sign = value > 0 ? "+" : "";
  if (check.metric === "ece") return `${sign}${value.toFixed(4)}`;
  if (check.metric === "p95Latency") return `${sign}${(value * 100).toFixed(1)} %`;
  return `${sign}${(value * 100).toFixed(1)} pt`;
}

export function formatP(value: number | null): string {
  if (value === null) return "n/a";
  return value < 0.0001 ? "< 0.0001" : value.toFixed(4);
}

/** One line per check, for the log and for a JUnit failure message. */
export function describeCheck(check: GateCheck): string {
  if (check.skipped) return `${check.label}: skipped (${check.skipped})`;
  const worse = check.metric === "accuracy" || check.metric === "accuracyAtThreshold" || check.metric === "coverage";
  const direction = worse ? "drop" : "rise";
  return (
    `${check.label}: ${formatFigure(check, check.baseline)} -> ${formatFigure(check, check.candidate)} ` +
    `(${direction} ${formatChange(check, check.degradation)}, limit ${formatChange(check, check.limit)}, ` +
    `${check.test} p = ${formatP(check.pValue)})` +
    (check.regressed ? ": REGRESSION" : "")
  );
}

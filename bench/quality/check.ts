import { readFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { benchOut } from "../../adapter/bench/bench-files.ts";
import { type QualityVariant, qualitySummary } from "./summary.ts";

/**
 * tsx bench/quality/check.ts [bench/out/quality.json]: recomputes the summary from the file's items with the
 * console's metric code and compares it with the summary the file holds. Exit 1 on any difference.
 */

export type QualityReport = { variants: QualityVariant[]; summary: unknown };

/** The summary's top-level parts that differ from what the items give (empty when it matches). */
export function summaryDifferences(report: QualityReport): string[] {
  const recomputed = JSON.parse(JSON.stringify(qualitySummary(report.variants))) as Record<string, unknown[]>;
  const stored = (report.summary ?? {}) as Record<string, unknown[]>;
  const differences: string[] = [];
  for (const key of new Set([...Object.keys(recomputed), ...Object.keys(stored)])) {
    const a = recomputed[key] ?? [];
    const b = stored[key] ?? [];
    const length = Math.max(a.length, b.length);
    for (let index = 0; index < length; index++) {
      if (!isDeepStrictEqual(a[index], b[index])) differences.push(`summary.${key}[${index}]`);
    }
  }
  return differences;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const file = path.resolve(process.argv[2] ?? path.join(benchOut, "quality.json"));
  const report = JSON.parse(readFileSync(file, "utf8")) as QualityReport;
  const differences = summaryDifferences(report);
  const items = report.variants.reduce((sum, variant) => sum + variant.items.length, 0);
  if (differences.length > 0) {
    console.error(`${file}: the summary differs from its ${items} items at ${differences.join(", ")}`);
    process.exit(1);
  }
  console.log(`${file}: the summary is what its ${items} items give (${report.variants.length} variants)`);
}

import type { QualitySummary } from "./summary.ts";

/** The Markdown tables bench:quality prints (and docs/decision-quality.md publishes as printed). */

const fixed = (value: number | null | undefined, digits = 3) =>
  value === null || value === undefined ? "–" : value.toFixed(digits);
const percent = (value: number | null | undefined) =>
  value === null || value === undefined ? "–" : `${(value * 100).toFixed(1)}%`;

function row(cells: readonly string[]): string {
  return `| ${cells.join(" | ")} |`;
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [row(header), row(header.map(() => "---")), ...rows.map(row)].join("\n");
}

export function qualityTables(summary: QualitySummary): string {
  const variants = summary.variants;
  const overview = table(
    [
      "variant",
      "accuracy",
      "chance",
      "refused",
      "Brier",
      "ECE",
      "T (all items)",
      "ECE after T",
      "held-out ECE before → after (even→odd)",
      "(odd→even)",
    ],
    variants.map((v) => [
      v.name,
      `${v.accuracy.correct}/${v.accuracy.total} = ${percent(v.accuracy.accuracy)}`,
      percent(v.chance),
      String(v.refused),
      fixed(v.brier),
      fixed(v.ece),
      fixed(v.temperature?.temperature, 2),
      fixed(v.temperature?.eceAfter),
      `${fixed(v.heldOut.fitOnEvenEvaluateOdd?.eceBefore)} → ${fixed(v.heldOut.fitOnEvenEvaluateOdd?.eceAfter)} (T ${fixed(v.heldOut.fitOnEvenEvaluateOdd?.temperature, 2)})`,
      `${fixed(v.heldOut.fitOnOddEvaluateEven?.eceBefore)} → ${fixed(v.heldOut.fitOnOddEvaluateEven?.eceAfter)} (T ${fixed(v.heldOut.fitOnOddEvaluateEven?.temperature, 2)})`,
    ]),
  );
  const thresholds = variants[0]?.coverageAt.map((point) => point.threshold) ?? [];
  const coverage = table(
    ["variant", ...thresholds.map((t) => `p ≥ ${t}: coverage, accuracy`), "smallest threshold for 70% / 80% / 90%"],
    variants.map((v) => [
      v.name,
      ...v.coverageAt.map((point) => `${percent(point.coverage)}, ${percent(point.accuracy)}`),
      v.thresholdFor
        .filter((entry) => entry.target >= 0.7)
        .map((entry) => (entry.point ? `${fixed(entry.point.threshold)} (${percent(entry.point.coverage)})` : "none"))
        .join(" / "),
    ]),
  );
  const strata = variants[0]?.strata.map((stratum) => stratum.stratum) ?? [];
  const byStratum = table(
    ["stratum (type/tier)", "items", "chance", ...variants.map((v) => v.name)],
    strata.map((stratum) => {
      const first = variants[0]!.strata.find((s) => s.stratum === stratum)!;
      return [
        stratum,
        String(first.total),
        percent(first.chance),
        ...variants.map((v) => {
          const cell = v.strata.find((s) => s.stratum === stratum);
          return cell ? `${cell.correct} (${percent(cell.accuracy)})` : "–";
        }),
      ];
    }),
  );
  const shifts = table(
    ["comparison", "items", "choices changed", "mean / median / max of the largest probability moved"],
    summary.shifts.map((shift) => [
      `${shift.what}: ${shift.from} → ${shift.to}`,
      String(shift.compared),
      String(shift.choicesChanged),
      `${fixed(shift.meanMaxMove)} / ${fixed(shift.medianMaxMove)} / ${fixed(shift.maxMove)}`,
    ]),
  );
  return [overview, coverage, byStratum, shifts].join("\n\n");
}

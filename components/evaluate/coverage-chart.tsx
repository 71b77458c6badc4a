import type { CoveragePoint } from "@/contract/evaluate/metrics.ts";
import { accuracyInterval } from "@/contract/evaluate/threshold.ts";
import { ChartFrame } from "../charts/chart-frame.tsx";
import { percent, percentRange } from "./format.ts";

// Room on the left for the rotated axis label beside the "50%" tick.
const box = { width: 320, height: 164, pad: { left: 42, right: 8, top: 8, bottom: 28 } };
const shares = [0, 0.5, 1].map((value) => ({ value, text: percent(value, 0) }));

/** The 95% Wilson interval of the accuracy at one threshold, from the items it answers. */
export const pointInterval = (point: CoveragePoint) =>
  accuracyInterval(Math.round(point.accuracy * point.covered), point.covered);

/**
 * Accuracy (y) against coverage (x) as the threshold rises, in a shaded 95% band; the picked threshold is marked.
 * A real model's curve is jagged at low coverage, where a handful of items decide each point: the band widens
 * there, so the jumps read as noise rather than as thresholds to choose.
 */
export function CoverageChart({
  curve,
  picked,
  targetAccuracy,
}: {
  curve: CoveragePoint[];
  picked: CoveragePoint | null;
  targetAccuracy: number;
}) {
  const summary = picked
    ? `Coverage against accuracy: answering only at probability ${picked.threshold.toFixed(3)} or more covers ${percent(picked.coverage)} of items at ${percent(picked.accuracy)} accuracy.`
    : `Coverage against accuracy: no threshold reaches ${percent(targetAccuracy)} accuracy.`;
  return (
    <ChartFrame
      title="Coverage against accuracy"
      summary={summary}
      chart="coverage"
      box={box}
      plotBackground
      x={{ domain: [0, 1], ticks: shares, label: "coverage (share answered)" }}
      y={{ domain: [0, 1], ticks: shares, label: "accuracy of answered" }}
      table={{
        caption: "Coverage and accuracy at each probability threshold",
        columns: ["threshold", "coverage", "accuracy", "items", "95% interval"],
        rows: curve.map((point) => [
          point.threshold.toFixed(3),
          percent(point.coverage),
          percent(point.accuracy),
          point.covered,
          percentRange(pointInterval(point)),
        ]),
      }}
    >
      {({ x, y, left, right }) => (
        <>
          <line
            className="stroke-red-700"
            x1={left}
            x2={right}
            y1={y(targetAccuracy)}
            y2={y(targetAccuracy)}
            strokeDasharray="4 3"
          />
          <text className="fill-red-700" x={right - 2} y={y(targetAccuracy) - 3} textAnchor="end" fontSize="9">
            {`target ${percent(targetAccuracy, 0)}`}
          </text>
          {curve.length > 0 && (
            <path
              data-testid="coverage-band"
              d={`${[...curve, ...[...curve].reverse()]
                .map((point, i) => {
                  const bound = i < curve.length ? pointInterval(point).upper : pointInterval(point).lower;
                  return `${i === 0 ? "M" : "L"}${x(point.coverage).toFixed(1)},${y(bound).toFixed(1)}`;
                })
                .join(" ")} Z`}
              className="fill-blue-200 stroke-none"
              fillOpacity="0.6"
            />
          )}
          {curve.length > 0 && (
            <path
              d={curve
                .map(
                  (point, i) => `${i === 0 ? "M" : "L"}${x(point.coverage).toFixed(1)},${y(point.accuracy).toFixed(1)}`,
                )
                .join(" ")}
              className="fill-none stroke-blue-700"
              strokeWidth="2"
            />
          )}
          {picked && (
            <circle className="fill-red-700" cx={x(picked.coverage)} cy={y(picked.accuracy)} r={4}>
              <title>{`threshold ${picked.threshold.toFixed(3)}: ${percent(picked.coverage)} answered, ${percent(picked.accuracy)} right`}</title>
            </circle>
          )}
        </>
      )}
    </ChartFrame>
  );
}

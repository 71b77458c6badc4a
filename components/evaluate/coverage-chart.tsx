import type { CoveragePoint } from "@/contract/evaluate/metrics.ts";
import { percent } from "./format.ts";

const width = 320;
const height = 160;
const pad = { left: 32, right: 8, top: 8, bottom: 24 };

/** Accuracy (y) against coverage (x) as the threshold rises; the picked threshold is marked. */
export function CoverageChart({
  curve,
  picked,
  targetAccuracy,
}: {
  curve: CoveragePoint[];
  picked: CoveragePoint | null;
  targetAccuracy: number;
}) {
  const x = (coverage: number) => pad.left + coverage * (width - pad.left - pad.right);
  const y = (accuracy: number) => pad.top + (1 - accuracy) * (height - pad.top - pad.bottom);
  const path = curve
    .map((point, i) => `${i === 0 ? "M" : "L"}${x(point.coverage).toFixed(1)},${y(point.accuracy).toFixed(1)}`)
    .join(" ");
  const label = picked
    ? `Coverage against accuracy: answering only at probability ${picked.threshold.toFixed(3)} or more covers ${percent(picked.coverage)} of items at ${percent(picked.accuracy)} accuracy.`
    : `Coverage against accuracy: no threshold reaches ${percent(targetAccuracy)} accuracy.`;
  return (
    <figure className="flex flex-col gap-1">
      <figcaption className="text-sm font-medium text-slate-800">Coverage against accuracy</figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} className="w-full" data-chart="coverage">
        <rect
          x={pad.left}
          y={pad.top}
          width={width - pad.left - pad.right}
          height={height - pad.top - pad.bottom}
          fill="#f8fafc"
          stroke="#cbd5e1"
        />
        <line
          x1={pad.left}
          x2={width - pad.right}
          y1={y(targetAccuracy)}
          y2={y(targetAccuracy)}
          stroke="#b91c1c"
          strokeDasharray="4 3"
        />
        {curve.length > 0 && <path d={path} fill="none" stroke="#1d4ed8" strokeWidth="2" />}
        {picked && <circle cx={x(picked.coverage)} cy={y(picked.accuracy)} r={4} fill="#b91c1c" />}
        {[0, 0.5, 1].map((tick) => (
          <g key={tick} fontSize="9" fill="#334155">
            <text x={x(tick)} y={height - 12} textAnchor="middle">
              {percent(tick, 0)}
            </text>
            <text x={pad.left - 4} y={y(tick) + 3} textAnchor="end">
              {percent(tick, 0)}
            </text>
          </g>
        ))}
        <text
          x={pad.left + (width - pad.left - pad.right) / 2}
          y={height - 1}
          fontSize="9"
          fill="#334155"
          textAnchor="middle"
        >
          coverage (share answered)
        </text>
      </svg>
    </figure>
  );
}

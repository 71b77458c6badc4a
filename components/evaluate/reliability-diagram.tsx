import type { ReliabilityBin } from "@/contract/evaluate/metrics.ts";
import { decimal } from "./format.ts";

const size = 240;
const pad = 32;
const plot = size - pad - 8;

/**
 * Accuracy against confidence per equal-width bin; the diagonal is perfect calibration. Each bar is labelled with
 * its item count: a real model's confidences crowd into a few bins, and a bar of 3 items says far less than one
 * of 150.
 */
export function ReliabilityDiagram({
  bins,
  ece,
  title,
}: {
  bins: ReliabilityBin[];
  ece: number | null;
  title: string;
}) {
  const x = (value: number) => pad + value * plot;
  const y = (value: number) => 8 + (1 - value) * plot;
  const filled = bins.filter((bin) => bin.count > 0);
  const summary = `${title}: expected calibration error ${decimal(ece)} over ${filled.length} non-empty bins of ${bins.length}. ${filled
    .map(
      (bin) =>
        `confidence ${bin.lower.toFixed(1)}–${bin.upper.toFixed(1)}: accuracy ${decimal(bin.accuracy, 2)} (${bin.count} items)`,
    )
    .join("; ")}`;
  return (
    <figure className="flex flex-col gap-1">
      <figcaption className="text-sm font-medium text-slate-800">
        {title} <span className="font-normal text-slate-700">(ECE {decimal(ece)})</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${size} ${size}`}
        role="img"
        aria-label={summary}
        className="w-full max-w-xs"
        data-chart="reliability"
      >
        <rect x={pad} y={8} width={plot} height={plot} fill="#f8fafc" stroke="#cbd5e1" />
        <line x1={x(0)} y1={y(0)} x2={x(1)} y2={y(1)} stroke="#94a3b8" strokeDasharray="4 3" />
        {bins.map((bin) =>
          bin.count > 0 && bin.accuracy !== null ? (
            <rect
              key={bin.lower}
              x={x(bin.lower) + 1}
              y={y(bin.accuracy)}
              width={Math.max(1, x(bin.upper) - x(bin.lower) - 2)}
              height={y(0) - y(bin.accuracy)}
              fill="#1d4ed8"
              fillOpacity={0.75}
            >
              <title>{`${bin.lower.toFixed(1)}–${bin.upper.toFixed(1)}: accuracy ${decimal(bin.accuracy, 2)}, ${bin.count} items`}</title>
            </rect>
          ) : null,
        )}
        {bins.map((bin) =>
          bin.count > 0 && bin.accuracy !== null ? (
            <text
              key={`count-${bin.lower}`}
              x={(x(bin.lower) + x(bin.upper)) / 2}
              y={Math.max(16, y(bin.accuracy) - 2)}
              textAnchor="middle"
              fontSize="8"
              fill={y(bin.accuracy) - 2 < 16 ? "#ffffff" : "#334155"}
              data-bin-count={bin.count}
            >
              {bin.count}
            </text>
          ) : null,
        )}
        {[0, 0.5, 1].map((tick) => (
          <g key={tick} fontSize="9" fill="#334155">
            <text x={x(tick)} y={size - 12} textAnchor="middle">
              {tick}
            </text>
            <text x={pad - 4} y={y(tick) + 3} textAnchor="end">
              {tick}
            </text>
          </g>
        ))}
        <text x={pad + plot / 2} y={size - 1} textAnchor="middle" fontSize="9" fill="#334155">
          confidence
        </text>
        <text
          x={9}
          y={8 + plot / 2}
          textAnchor="middle"
          fontSize="9"
          fill="#334155"
          transform={`rotate(-90 9 ${8 + plot / 2})`}
        >
          accuracy
        </text>
      </svg>
    </figure>
  );
}

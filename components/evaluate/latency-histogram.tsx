import type { HistogramBin, LatencySummary } from "@/contract/evaluate/metrics.ts";
import { latency } from "./format.ts";

const width = 320;
const height = 156;
// The p50 and p95 labels sit in the top band, above the tallest bar, so no bar ever covers them.
const pad = { left: 28, right: 8, top: 26, bottom: 22 };

/** Client latency per request, with the p50 and p95 marked. */
export function LatencyHistogram({
  bins,
  summary,
  title,
}: {
  bins: HistogramBin[];
  summary: LatencySummary;
  title: string;
}) {
  const max = Math.max(1, ...bins.map((bin) => bin.count));
  const top = bins.at(-1)?.upper ?? 1;
  const x = (ms: number) => pad.left + (ms / top) * (width - pad.left - pad.right);
  const y = (count: number) => pad.top + (1 - count / max) * (height - pad.top - pad.bottom);
  const label = `${title}: ${summary.count} requests, p50 ${latency(summary.p50)}, p95 ${latency(summary.p95)}, p99 ${latency(summary.p99)}.`;
  return (
    <figure className="flex flex-col gap-1">
      <figcaption className="text-sm font-medium text-slate-800">{title}</figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} className="w-full" data-chart="latency">
        <line x1={pad.left} x2={width - pad.right} y1={y(0)} y2={y(0)} stroke="#94a3b8" />
        {bins.map((bin) => (
          <rect
            key={bin.lower}
            x={x(bin.lower) + 0.5}
            y={y(bin.count)}
            width={Math.max(0.5, x(bin.upper) - x(bin.lower) - 1)}
            height={y(0) - y(bin.count)}
            fill="#0f766e"
          >
            <title>{`${latency(bin.lower)}–${latency(bin.upper)}: ${bin.count}`}</title>
          </rect>
        ))}
        {(["p50", "p95"] as const).map((key) =>
          summary[key] !== null ? (
            <g key={key}>
              <line
                x1={x(summary[key])}
                x2={x(summary[key])}
                y1={key === "p50" ? 11 : 22}
                y2={y(0)}
                stroke="#b91c1c"
                strokeDasharray="3 2"
              />
              <text
                x={x(summary[key]) + (x(summary[key]) > width - 40 ? -2 : 2)}
                y={key === "p50" ? 9 : 20}
                fontSize="9"
                fill="#b91c1c"
                textAnchor={x(summary[key]) > width - 40 ? "end" : "start"}
              >
                {key}
              </text>
            </g>
          ) : null,
        )}
        <text x={pad.left} y={height - 6} fontSize="9" fill="#334155">
          0
        </text>
        <text x={width - pad.right} y={height - 6} fontSize="9" fill="#334155" textAnchor="end">
          {latency(top)}
        </text>
        <text x={pad.left - 4} y={y(max) + 3} fontSize="9" fill="#334155" textAnchor="end">
          {max}
        </text>
      </svg>
    </figure>
  );
}

import type { HistogramBin, LatencySummary } from "@/contract/evaluate/metrics.ts";
import { ChartFrame, textWidth } from "../charts/chart-frame.tsx";
import { niceTicks } from "../charts/nice-ticks.ts";
import { readableNumber } from "../charts/readable-number.ts";
import { latency } from "./format.ts";

const MARKER_FONT_SIZE = 9;

/** A round tick's latency, without the three decimals of a measured one: "20 s", "500 ms". */
const tickLatency = (ms: number) => (ms >= 1000 ? `${readableNumber(ms / 1000)} s` : `${readableNumber(ms)} ms`);

// The p50 and p95 labels sit in the top band, above the tallest bar, so no bar ever covers them.
const box = { width: 320, height: 166, pad: { left: 30, right: 8, top: 26, bottom: 32 } };

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
  const label = `${title}: ${summary.count} requests, p50 ${latency(summary.p50)}, p95 ${latency(summary.p95)}, p99 ${latency(summary.p99)}.`;
  return (
    <ChartFrame
      title={title}
      summary={label}
      chart="latency"
      box={box}
      x={{
        domain: [0, top],
        ticks: niceTicks(top).map((value) => ({ value, text: value === 0 ? "0" : tickLatency(value) })),
        label: "latency per request",
      }}
      y={{
        domain: [0, max],
        ticks: niceTicks(max).map((value) => ({ value, text: readableNumber(value) })),
        label: "requests",
      }}
      table={{
        caption: `${title}: requests per latency bin`,
        columns: ["from", "to", "requests"],
        rows: bins.map((bin) => [latency(bin.lower), latency(bin.upper), bin.count]),
      }}
    >
      {({ x, y, right }) => (
        <>
          {bins.map((bin) => (
            <rect
              className="fill-teal-700"
              key={bin.lower}
              x={x(bin.lower) + 0.5}
              y={y(bin.count)}
              width={Math.max(0.5, x(bin.upper) - x(bin.lower) - 1)}
              height={y(0) - y(bin.count)}
            >
              <title>{`${latency(bin.lower)}–${latency(bin.upper)}: ${bin.count}`}</title>
            </rect>
          ))}
          {(["p50", "p95"] as const).map((key) => {
            const value = summary[key];
            if (value === null) return null;
            const text = `${key} ${latency(value)}`;
            // A label that would run past the plot ends at its marker instead.
            const nearRight = x(value) + 2 + textWidth(text, MARKER_FONT_SIZE) > right;
            return (
              <g key={key}>
                <line
                  className="stroke-red-700"
                  x1={x(value)}
                  x2={x(value)}
                  y1={key === "p50" ? 11 : 22}
                  y2={y(0)}
                  strokeDasharray="3 2"
                />
                <text
                  className="fill-red-700"
                  x={x(value) + (nearRight ? -2 : 2)}
                  y={key === "p50" ? 9 : 20}
                  fontSize={MARKER_FONT_SIZE}
                  textAnchor={nearRight ? "end" : "start"}
                >
                  {text}
                </text>
              </g>
            );
          })}
        </>
      )}
    </ChartFrame>
  );
}

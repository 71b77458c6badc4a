import { ChartFrame } from "./chart-frame.tsx";
import { readableNumber } from "./readable-number.ts";

/** Counts over bins of [0, 1] (a probability's distribution), with an optional marked value (a threshold). */
export type HistogramBar = { from: number; to: number; count: number };

const box = { width: 320, height: 120, pad: { left: 36, right: 8, top: 8, bottom: 20 } };

export function HistogramChart({
  title,
  unit,
  bars,
  marker,
}: {
  title: string;
  unit: string;
  bars: HistogramBar[];
  marker?: { value: number; label: string };
}) {
  const max = Math.max(1, ...bars.map((bar) => bar.count));
  const total = bars.reduce((sum, bar) => sum + bar.count, 0);
  const fullest = bars.reduce((best, bar) => (bar.count > (best?.count ?? -1) ? bar : best), bars[0]);
  const summary =
    total === 0
      ? `${title}: no decisions in this window.`
      : `${title}: ${total} ${unit}, most between ${fullest?.from.toFixed(2)} and ${fullest?.to.toFixed(2)}.`;
  return (
    <ChartFrame
      title={title}
      note={unit}
      summary={summary}
      chart="histogram"
      box={box}
      x={{
        domain: [0, 1],
        ticks: [0, 0.25, 0.5, 0.75, 1].map((value) => ({ value, text: value.toFixed(2) })),
      }}
      y={{
        domain: [0, max],
        ticks: [
          { value: 0, text: "0" },
          { value: max, text: readableNumber(max) },
        ],
      }}
      table={{
        caption: `${title} per bin`,
        columns: ["from", "to", unit],
        rows: bars.map((bar) => [bar.from.toFixed(2), bar.to.toFixed(2), bar.count]),
      }}
    >
      {({ x, y, bottom, top }) => (
        <>
          {bars.map((bar) => (
            <rect
              key={bar.from}
              className="fill-blue-700"
              x={x(bar.from) + 0.5}
              width={Math.max(0, x(bar.to) - x(bar.from) - 1)}
              y={y(bar.count)}
              height={bottom - y(bar.count)}
            >
              <title>{`${bar.from.toFixed(2)} to ${bar.to.toFixed(2)}: ${bar.count} ${unit}`}</title>
            </rect>
          ))}
          {marker && (
            <line
              className="stroke-amber-600"
              strokeDasharray="3 2"
              strokeWidth="1.5"
              x1={x(marker.value)}
              x2={x(marker.value)}
              y1={top}
              y2={bottom}
            >
              <title>{marker.label}</title>
            </line>
          )}
        </>
      )}
    </ChartFrame>
  );
}

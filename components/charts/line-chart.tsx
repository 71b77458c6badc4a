import { ChartFrame } from "./chart-frame.tsx";

/** A metric over time (CloudWatch periods), drawn in the console's chart frame. */
export type ChartPoint = { at: string; value: number };

const box = { width: 320, height: 120, pad: { left: 36, right: 8, top: 8, bottom: 20 } };

export function LineChart({ title, unit, points }: { title: string; unit: string; points: ChartPoint[] }) {
  const max = Math.max(1, ...points.map((point) => point.value));
  const times = points.map((point) => Date.parse(point.at));
  const t0 = Math.min(...times);
  const t1 = Math.max(...times);
  const latest = points.at(-1)?.value;
  const summary =
    points.length === 0
      ? `${title}: no data points in this period.`
      : `${title}: latest ${format(latest ?? 0)} ${unit}, peak ${format(max)} ${unit} over ${points.length} points.`;
  const timeTicks = points.length === 0 ? [] : [...new Set([t0, t1])].map((t) => ({ value: t, text: clock(t) }));
  return (
    <ChartFrame
      title={title}
      note={unit}
      summary={summary}
      chart="line"
      box={box}
      x={{ domain: points.length === 0 ? [0, 1] : [t0, t1], ticks: timeTicks }}
      y={{
        domain: [0, max],
        ticks: [
          { value: 0, text: "0" },
          { value: max, text: format(max) },
        ],
      }}
      table={{
        caption: `${title} per period`,
        columns: ["period (UTC)", unit],
        rows: points.map((point) => [point.at, format(point.value)]),
      }}
    >
      {({ x, y, left, right, top, bottom }) => (
        <>
          <line x1={left} x2={right} y1={y(max)} y2={y(max)} stroke="#e2e8f0" />
          {points.length > 0 && (
            <path
              d={points
                .map(
                  (point, i) =>
                    `${i === 0 ? "M" : "L"}${x(Date.parse(point.at)).toFixed(1)},${y(point.value).toFixed(1)}`,
                )
                .join(" ")}
              fill="none"
              stroke="#1d4ed8"
              strokeWidth="2"
            />
          )}
          {/* A line needs two points; a dot per point keeps a single period (the first invocations) visible. */}
          {points.map((point) => (
            <circle key={point.at} cx={x(Date.parse(point.at))} cy={y(point.value)} r="2.5" fill="#1d4ed8">
              <title>{`${point.at}: ${format(point.value)} ${unit}`}</title>
            </circle>
          ))}
          {points.length === 0 && (
            <text x={(left + right) / 2} y={(top + bottom) / 2} textAnchor="middle" fontSize="11" fill="#334155">
              No data yet
            </text>
          )}
        </>
      )}
    </ChartFrame>
  );
}

function format(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toPrecision(3);
}

function clock(t: number): string {
  return new Date(t).toISOString().slice(11, 16);
}

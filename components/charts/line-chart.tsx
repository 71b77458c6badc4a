import { timestampText } from "../ui/timestamp.tsx";
import { ChartFrame } from "./chart-frame.tsx";
import { readableNumber } from "./readable-number.ts";
import { timeTicks } from "./time-axis.ts";

/** A metric over time (CloudWatch periods), drawn in the console's chart frame. */
export type ChartPoint = { at: string; value: number };

const box = { width: 320, height: 120, pad: { left: 36, right: 8, top: 8, bottom: 20 } };

/**
 * Whether a period is missing before each point (CloudWatch leaves out a period without datapoints): the line
 * breaks there instead of drawing a straight line across the missing periods.
 */
export function gapsBetween(times: readonly number[], periodSeconds?: number): boolean[] {
  const steps = times.slice(1).map((time, i) => time - (times[i] ?? time));
  const period = periodSeconds === undefined ? Math.min(...steps.filter((step) => step > 0)) : periodSeconds * 1000;
  return times.map((_, i) => i > 0 && Number.isFinite(period) && (steps[i - 1] ?? 0) > period * 1.5);
}

/**
 * `from` and `to` (ISO times) are the charted window: the time axis spans it whether or not every period has a
 * point; without them the axis spans the points.
 */
export function LineChart({
  title,
  unit,
  points,
  from,
  to,
  periodSeconds,
}: {
  title: string;
  unit: string;
  points: ChartPoint[];
  from?: string;
  to?: string;
  /** The points' period; without it, the smallest spacing between two points. */
  periodSeconds?: number;
}) {
  const max = Math.max(1, ...points.map((point) => point.value));
  const times = points.map((point) => Date.parse(point.at));
  const t0 = from === undefined ? Math.min(...times) : Date.parse(from);
  const t1 = to === undefined ? Math.max(...times) : Date.parse(to);
  const hasDomain = Number.isFinite(t0) && Number.isFinite(t1);
  const gapBefore = gapsBetween(times, periodSeconds);
  const latest = points.at(-1)?.value;
  const summary =
    points.length === 0
      ? `${title}: no data points in this period.`
      : `${title}: latest ${format(latest ?? 0)} ${unit}, peak ${format(max)} ${unit} over ${points.length} points.`;
  return (
    <ChartFrame
      title={title}
      note={unit}
      summary={summary}
      chart="line"
      box={box}
      x={{ domain: hasDomain ? [t0, t1] : [0, 1], ticks: hasDomain ? timeTicks(t0, t1) : [] }}
      y={{
        domain: [0, max],
        ticks: [
          { value: 0, text: "0" },
          { value: max / 2, text: format(max / 2) },
          { value: max, text: format(max) },
        ],
      }}
      table={{
        caption: `${title} per period`,
        columns: ["period (local time)", unit],
        rows: points.map((point) => [timestampText(point.at), format(point.value)]),
      }}
    >
      {({ x, y, left, right, top, bottom }) => (
        <>
          <line className="stroke-slate-200" x1={left} x2={right} y1={y(max)} y2={y(max)} />
          {points.length > 0 && (
            <path
              d={points
                .map(
                  (point, i) =>
                    `${i === 0 || gapBefore[i] ? "M" : "L"}${x(Date.parse(point.at)).toFixed(1)},${y(point.value).toFixed(1)}`,
                )
                .join(" ")}
              className="fill-none stroke-blue-700"
              strokeWidth="2"
            />
          )}
          {/* A line needs two points; a dot per point keeps a single period (the first invocations) visible. */}
          {points.map((point) => (
            <circle className="fill-blue-700" key={point.at} cx={x(Date.parse(point.at))} cy={y(point.value)} r="2.5">
              <title>{`${timestampText(point.at)}: ${format(point.value)} ${unit}`}</title>
            </circle>
          ))}
          {points.length === 0 && (
            <text
              className="fill-slate-700"
              x={(left + right) / 2}
              y={(top + bottom) / 2}
              textAnchor="middle"
              fontSize="11"
            >
              No data yet
            </text>
          )}
        </>
      )}
    </ChartFrame>
  );
}

const format = readableNumber;

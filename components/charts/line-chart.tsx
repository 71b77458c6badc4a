/** The console's one chart wrapper: a small SVG line chart with a text summary for screen readers. */
export type ChartPoint = { at: string; value: number };

const width = 320;
const height = 120;
const pad = { left: 36, right: 8, top: 8, bottom: 20 };

export function LineChart({ title, unit, points }: { title: string; unit: string; points: ChartPoint[] }) {
  const values = points.map((point) => point.value);
  const max = Math.max(1, ...values);
  const times = points.map((point) => Date.parse(point.at));
  const t0 = Math.min(...times);
  const t1 = Math.max(...times);
  const x = (t: number) => pad.left + (t1 === t0 ? 0.5 : (t - t0) / (t1 - t0)) * (width - pad.left - pad.right);
  const y = (v: number) => pad.top + (1 - v / max) * (height - pad.top - pad.bottom);
  const path = points
    .map(
      (point, index) => `${index === 0 ? "M" : "L"}${x(Date.parse(point.at)).toFixed(1)},${y(point.value).toFixed(1)}`,
    )
    .join(" ");
  const latest = points.at(-1)?.value;
  const summary =
    points.length === 0
      ? `${title}: no data points in this period.`
      : `${title}: latest ${format(latest ?? 0)} ${unit}, peak ${format(max)} ${unit} over ${points.length} points.`;
  return (
    <figure className="flex flex-col gap-1">
      <figcaption className="text-sm font-medium text-slate-800">
        {title} <span className="font-normal text-slate-700">({unit})</span>
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary} className="w-full">
        <line x1={pad.left} x2={width - pad.right} y1={y(0)} y2={y(0)} stroke="#94a3b8" />
        <line x1={pad.left} x2={width - pad.right} y1={y(max)} y2={y(max)} stroke="#e2e8f0" />
        <text x={pad.left - 4} y={y(max) + 4} textAnchor="end" fontSize="10" fill="#334155">
          {format(max)}
        </text>
        <text x={pad.left - 4} y={y(0)} textAnchor="end" fontSize="10" fill="#334155">
          0
        </text>
        {points.length > 0 && <path d={path} fill="none" stroke="#1d4ed8" strokeWidth="2" />}
        {/* A line needs two points; a dot per point keeps a single period (the first invocations) visible. */}
        {points.map((point) => (
          <circle key={point.at} cx={x(Date.parse(point.at))} cy={y(point.value)} r="2.5" fill="#1d4ed8" />
        ))}
        {points.length === 0 && (
          <text x={width / 2} y={height / 2} textAnchor="middle" fontSize="11" fill="#334155">
            No data yet
          </text>
        )}
      </svg>
    </figure>
  );
}

function format(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toPrecision(3);
}

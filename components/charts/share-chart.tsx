import { timestampText } from "../ui/timestamp.tsx";
import { ChartFrame } from "./chart-frame.tsx";
import { timeTicks } from "./time-axis.ts";

/** Each period's counts per category (an option chosen), drawn as that period's shares stacked to 100%. */
export type SharePeriod = { at: string; counts: Record<string, number> };

const box = { width: 320, height: 120, pad: { left: 36, right: 8, top: 8, bottom: 20 } };
/** Distinguishable for the common kinds of colour blindness (Okabe-Ito), then repeated. */
const palette = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"];
export const shareColor = (index: number) => palette[index % palette.length] ?? "#000000";

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

export function ShareChart({
  title,
  categories,
  periods,
  periodSeconds,
  from,
  to,
}: {
  title: string;
  categories: string[];
  periods: SharePeriod[];
  periodSeconds: number;
  from: string;
  to: string;
}) {
  const t0 = Date.parse(from);
  const t1 = Date.parse(to);
  const totals = periods.map((period) => Object.values(period.counts).reduce((sum, count) => sum + count, 0));
  const overall = categories.map((category) =>
    periods.reduce((sum, period) => sum + (period.counts[category] ?? 0), 0),
  );
  const all = overall.reduce((sum, count) => sum + count, 0);
  const summary =
    all === 0
      ? `${title}: no decisions in this window.`
      : `${title}: ${categories.map((category, i) => `${category} ${percent((overall[i] ?? 0) / all)}`).join(", ")}.`;
  return (
    <div className="flex flex-col gap-1">
      <ChartFrame
        title={title}
        note="share of decisions"
        summary={summary}
        chart="share"
        box={box}
        x={{ domain: [t0, t1], ticks: timeTicks(t0, t1) }}
        y={{
          domain: [0, 1],
          ticks: [
            { value: 0, text: "0%" },
            { value: 0.5, text: "50%" },
            { value: 1, text: "100%" },
          ],
        }}
        table={{
          caption: `${title} per period`,
          columns: ["period (local time)", ...categories, "decisions"],
          rows: periods.map((period, i) => [
            timestampText(period.at),
            ...categories.map((category) => percent((period.counts[category] ?? 0) / (totals[i] || 1))),
            totals[i] ?? 0,
          ]),
        }}
      >
        {({ x, y }) =>
          periods.map((period, i) => {
            const start = Date.parse(period.at);
            const left = x(start);
            const width = Math.max(1, x(start + periodSeconds * 1000) - left - 0.5);
            const total = totals[i] || 1;
            let below = 0;
            return categories.map((category, c) => {
              const share = (period.counts[category] ?? 0) / total;
              const y0 = y(below);
              below += share;
              const y1 = y(below);
              return (
                <rect
                  key={`${period.at}-${category}`}
                  x={left}
                  width={width}
                  y={y1}
                  height={y0 - y1}
                  fill={shareColor(c)}
                >
                  <title>{`${timestampText(period.at)}: ${category} ${percent(share)}`}</title>
                </rect>
              );
            });
          })
        }
      </ChartFrame>
      <ul className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-700" aria-label={`${title} legend`}>
        {categories.map((category, i) => (
          <li key={category} className="flex items-center gap-1">
            <span className="inline-block size-2.5 rounded-sm" style={{ backgroundColor: shareColor(i) }} aria-hidden />
            {category} {all > 0 ? percent((overall[i] ?? 0) / all) : ""}
          </li>
        ))}
      </ul>
    </div>
  );
}

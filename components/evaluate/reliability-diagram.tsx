import type { ReliabilityBin } from "@/contract/evaluate/metrics.ts";
import { accuracyInterval } from "@/contract/evaluate/threshold.ts";
import { ChartFrame } from "../charts/chart-frame.tsx";
import { decimal, percentRange } from "./format.ts";

const box = { width: 240, height: 240, pad: { left: 32, right: 8, top: 8, bottom: 24 } };
const ticks = [0, 0.5, 1].map((value) => ({ value, text: String(value) }));

/**
 * A bar's opacity by how many items it stands on (square root, from 0.25 to 0.85): on the SmolLM2 run a full-height
 * bar of 1 item drew the eye more than the 83 items beside it.
 */
export const binOpacity = (count: number, most: number) =>
  Math.round((0.25 + 0.6 * Math.sqrt(count / Math.max(1, most))) * 100) / 100;

/** The 95% Wilson interval of a bin's accuracy: a bar of 3 items at 100% may stand for anything above 44%. */
export function binInterval(bin: ReliabilityBin): { lower: number; upper: number } {
  return accuracyInterval(Math.round((bin.accuracy ?? 0) * bin.count), bin.count);
}

/**
 * Accuracy against confidence per equal-width bin; the diagonal is perfect calibration. Each bar is labelled with
 * its item count and carries a whisker of its accuracy's 95% interval: a real model's confidences crowd into a few
 * bins, and on the 231 JevBench decisions two bars of 3 and 1 items at 100% read as a finding until their whiskers
 * show they reach down to 44% and 21%.
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
  const filled = bins.filter((bin) => bin.count > 0);
  const mostItems = Math.max(1, ...filled.map((bin) => bin.count));
  const summary = `${title}: expected calibration error ${decimal(ece)} over ${filled.length} non-empty bins of ${bins.length}. ${filled
    .map(
      (bin) =>
        `confidence ${bin.lower.toFixed(1)}–${bin.upper.toFixed(1)}: accuracy ${decimal(bin.accuracy, 2)} (${bin.count} items, 95% interval ${percentRange(binInterval(bin), 0)})`,
    )
    .join("; ")}`;
  return (
    <ChartFrame
      title={title}
      note={`ECE ${decimal(ece)}`}
      summary={summary}
      chart="reliability"
      box={box}
      plotBackground
      x={{ domain: [0, 1], ticks, label: "confidence" }}
      y={{ domain: [0, 1], ticks, label: "accuracy" }}
      table={{
        caption: `${title}: accuracy per confidence bin`,
        columns: ["confidence", "items", "mean confidence", "accuracy", "95% interval"],
        rows: filled.map((bin) => [
          `${bin.lower.toFixed(1)}–${bin.upper.toFixed(1)}`,
          bin.count,
          decimal(bin.meanConfidence, 3),
          decimal(bin.accuracy, 3),
          percentRange(binInterval(bin), 0),
        ]),
      }}
    >
      {({ x, y }) => (
        <>
          <line className="stroke-slate-400" x1={x(0)} y1={y(0)} x2={x(1)} y2={y(1)} strokeDasharray="4 3" />
          {filled.map((bin) =>
            bin.accuracy === null ? null : (
              <g key={bin.lower}>
                <rect
                  className="fill-blue-700"
                  x={x(bin.lower) + 1}
                  y={y(bin.accuracy)}
                  width={Math.max(1, x(bin.upper) - x(bin.lower) - 2)}
                  height={y(0) - y(bin.accuracy)}
                  fillOpacity={binOpacity(bin.count, mostItems)}
                >
                  <title>{`${bin.lower.toFixed(1)}–${bin.upper.toFixed(1)}: accuracy ${decimal(bin.accuracy, 2)}, ${bin.count} items`}</title>
                </rect>
                <BinWhisker centre={(x(bin.lower) + x(bin.upper)) / 2} range={binInterval(bin)} y={y} />
                {/* At the bar's foot, clear of the whisker; the white halo keeps it legible on any bar's shade. */}
                <text
                  x={(x(bin.lower) + x(bin.upper)) / 2}
                  y={y(0) - 3}
                  textAnchor="middle"
                  fontSize="8"
                  className="fill-slate-900 stroke-white"
                  strokeWidth="2.5"
                  paintOrder="stroke"
                  data-bin-count={bin.count}
                >
                  {bin.count}
                </text>
              </g>
            ),
          )}
        </>
      )}
    </ChartFrame>
  );
}

/** A vertical 95% interval with short caps, drawn over the bar. */
function BinWhisker({
  centre,
  range,
  y,
}: {
  centre: number;
  range: { lower: number; upper: number };
  y: (value: number) => number;
}) {
  const [from, to] = [y(range.lower), y(range.upper)];
  return (
    <g className="stroke-slate-800" strokeWidth="1" data-interval={`${from.toFixed(1)}-${to.toFixed(1)}`}>
      <line x1={centre} x2={centre} y1={from} y2={to} />
      <line x1={centre - 3} x2={centre + 3} y1={from} y2={from} />
      <line x1={centre - 3} x2={centre + 3} y1={to} y2={to} />
    </g>
  );
}

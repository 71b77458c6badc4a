import type { ReactNode } from "react";
import { Table, TableBody, TableHead } from "../ui/table.tsx";

/**
 * The console's one chart frame: every chart (metrics, evaluation, monitoring) draws its marks inside it. The
 * frame owns the size, the plot area and its linear scales, both axes with their ticks and labels, the summary a
 * screen reader announces, and a table of the same numbers under the chart. Marks carry their tooltip as an SVG
 * `<title>`.
 */
export type ChartBox = {
  width: number;
  height: number;
  pad: { left: number; right: number; top: number; bottom: number };
};

export type ChartAxis = {
  domain: readonly [number, number];
  ticks: readonly { value: number; text: string }[];
  label?: string;
};

export type ChartTable = {
  caption: string;
  columns: readonly string[];
  rows: readonly (readonly (string | number)[])[];
};

export type ChartScales = {
  x: (value: number) => number;
  y: (value: number) => number;
  left: number;
  right: number;
  top: number;
  bottom: number;
};

export function linearScale(domain: readonly [number, number], range: readonly [number, number]) {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0;
  return (value: number) => (span === 0 ? (r0 + r1) / 2 : r0 + ((value - d0) / span) * (r1 - r0));
}

export function chartScales(box: ChartBox, x: ChartAxis, y: ChartAxis): ChartScales {
  const left = box.pad.left;
  const right = box.width - box.pad.right;
  const top = box.pad.top;
  const bottom = box.height - box.pad.bottom;
  return { x: linearScale(x.domain, [left, right]), y: linearScale(y.domain, [bottom, top]), left, right, top, bottom };
}

const axisText = { fontSize: 9, className: "fill-slate-700" } as const;

/** Width of `text` at the axis font, by the average advance of a sans-serif glyph (0.6 em): no DOM to measure. */
/** About how wide a label is drawn: 0.6 of the font size a character. */
export const textWidth = (text: string, fontSize = axisText.fontSize) => text.length * fontSize * 0.6;

/**
 * How an x tick's label is anchored so it stays inside the drawing: centred on its tick, unless half of it would
 * cross the left or right edge of the box (a "1.852 s" at the last tick lost its unit to the edge).
 */
export function xTickAnchor(at: number, text: string, width: number): "start" | "middle" | "end" {
  const half = textWidth(text) / 2;
  if (at + half > width) return "end";
  if (at - half < 0) return "start";
  return "middle";
}

export function ChartFrame({
  title,
  note,
  summary,
  chart,
  box,
  x,
  y,
  table,
  plotBackground = false,
  children,
}: {
  title: string;
  note?: string;
  /** What a screen reader announces for the chart: the figures a reader would take from it. */
  summary: string;
  /** `data-chart`, for tests and styles. */
  chart: string;
  box: ChartBox;
  x: ChartAxis;
  y: ChartAxis;
  table: ChartTable;
  plotBackground?: boolean;
  children: (scales: ChartScales) => ReactNode;
}) {
  const scales = chartScales(box, x, y);
  const middleX = (scales.left + scales.right) / 2;
  const middleY = (scales.top + scales.bottom) / 2;
  return (
    <figure className="flex flex-col gap-1">
      <figcaption className="text-sm font-medium text-slate-800">
        {title} {note ? <span className="font-normal text-slate-700">({note})</span> : null}
      </figcaption>
      <svg
        viewBox={`0 0 ${box.width} ${box.height}`}
        role="img"
        aria-label={summary}
        className="w-full"
        data-chart={chart}
      >
        {plotBackground ? (
          <rect
            className="fill-slate-50 stroke-slate-300"
            x={scales.left}
            y={scales.top}
            width={scales.right - scales.left}
            height={scales.bottom - scales.top}
          />
        ) : (
          <line className="stroke-slate-400" x1={scales.left} x2={scales.right} y1={scales.bottom} y2={scales.bottom} />
        )}
        {children(scales)}
        {x.ticks.map((tick) => (
          <text
            key={`x-${tick.value}`}
            x={scales.x(tick.value)}
            y={scales.bottom + 11}
            textAnchor={xTickAnchor(scales.x(tick.value), tick.text, box.width)}
            {...axisText}
          >
            {tick.text}
          </text>
        ))}
        {y.ticks.map((tick, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: ticks are positional.
          <text key={`y-${index}`} x={scales.left - 4} y={scales.y(tick.value) + 3} textAnchor="end" {...axisText}>
            {tick.text}
          </text>
        ))}
        {x.label ? (
          <text x={middleX} y={box.height - 1} textAnchor="middle" {...axisText}>
            {x.label}
          </text>
        ) : null}
        {y.label ? (
          <text x={9} y={middleY} textAnchor="middle" transform={`rotate(-90 9 ${middleY})`} {...axisText}>
            {y.label}
          </text>
        ) : null}
      </svg>
      <details className="text-xs text-slate-700">
        <summary className="cursor-pointer">Numbers</summary>
        <Table
          caption={table.caption}
          size="xs"
          compact
          frameClassName="mt-1"
          className="tabular-nums"
          chartTable={chart}
        >
          <TableHead plain>
            {table.columns.map((column) => (
              <th key={column} scope="col" className="font-medium">
                {column}
              </th>
            ))}
          </TableHead>
          <TableBody divided={false}>
            {table.rows.map((row, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional and never reordered.
              <tr key={index}>
                {row.map((cell, column) => (
                  <td key={table.columns[column]}>{cell}</td>
                ))}
              </tr>
            ))}
          </TableBody>
        </Table>
      </details>
    </figure>
  );
}

import { type ReactNode, useId } from "react";
import { type SortDirection, sortArrow } from "./table-sort.ts";

/**
 * The console's one table. It owns the frame that scrolls a wide table inside itself (the page never scrolls
 * sideways on a phone), the caption, and every cell's spacing, so headers never run together; callers write rows
 * of plain `<th>` and `<td>` with their content's own classes (font-mono, tabular-nums, colours).
 */
const density = {
  comfortable: "[&_td]:px-3 [&_td]:py-2 [&_th]:px-3 [&_th]:py-2",
  compact: "[&_td]:px-2 [&_td]:py-1 [&_th]:px-2 [&_th]:py-1",
} as const;

export function Table({
  caption,
  captionClassName = "sr-only",
  size = "sm",
  compact = false,
  framed = false,
  fit = false,
  className = "",
  frameClassName = "",
  testId,
  chartTable,
  children,
}: {
  caption: ReactNode;
  /** The caption's classes: screen readers only unless given. */
  captionClassName?: string;
  size?: "sm" | "xs";
  compact?: boolean;
  /** A bordered box of its own (a table standing alone on a page rather than inside a card). */
  framed?: boolean;
  /** As wide as its columns need rather than the whole box (a matrix, a short list of numbers). */
  fit?: boolean;
  className?: string;
  /** Extra classes for the scrolling frame, such as a height that scrolls a long table. */
  frameClassName?: string;
  testId?: string;
  /** `data-chart-table`: the table of numbers under a chart. */
  chartTable?: string;
  children: ReactNode;
}) {
  const frame = framed ? "rounded-lg border border-slate-200 bg-white" : "";
  const captionId = useId();
  return (
    // A frame that may scroll is a named region a keyboard can reach and scroll (WCAG 2.1.1).
    <section
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must be reachable by keyboard
      tabIndex={0}
      aria-labelledby={captionId}
      className={`max-w-full overflow-x-auto ${frame} ${frameClassName}`.trim()}
    >
      <table
        className={`${fit ? "w-auto" : "w-full"} text-left ${size === "xs" ? "text-xs" : "text-sm"} ${density[compact ? "compact" : "comfortable"]} [&_th]:align-bottom [&_td]:align-top ${className}`.trim()}
        data-testid={testId}
        data-chart-table={chartTable}
      >
        <caption id={captionId} className={captionClassName}>
          {caption}
        </caption>
        {children}
      </table>
    </section>
  );
}

/** The header row: small capitals on a tinted band, each header on one line. */
export function TableHead({ children, plain = false }: { children: ReactNode; plain?: boolean }) {
  return (
    <thead
      className={`${plain ? "" : "bg-slate-100 text-xs uppercase tracking-wide"} text-slate-700 [&_th]:whitespace-nowrap [&_th]:font-semibold`}
    >
      <tr>{children}</tr>
    </thead>
  );
}

/** The rows, ruled apart unless `divided` is false (a matrix reads by its cells' shading). */
export function TableBody({ children, divided = true }: { children: ReactNode; divided?: boolean }) {
  return <tbody className={divided ? "divide-y divide-slate-200" : undefined}>{children}</tbody>;
}

/** A column header that sorts: `aria-sort` and the arrow say the same thing (▼ descending, ▲ ascending). */
export function SortableHeader({
  direction,
  onSort,
  children,
}: {
  direction: SortDirection | undefined;
  onSort: () => void;
  children: ReactNode;
}) {
  return (
    <th scope="col" aria-sort={direction}>
      <button
        type="button"
        onClick={onSort}
        className="inline-flex items-center gap-1 uppercase hover:text-slate-950 focus-visible:outline-2 focus-visible:outline-blue-700"
      >
        {children}
        <span aria-hidden="true">{sortArrow(direction)}</span>
      </button>
    </th>
  );
}

/**
 * The console's one way to write an instant: `2026-12-01 14:05:09`, the date and the 24-hour time to the second,
 * in the reader's own time zone (`timeZone` for tests). One shape on every page, whatever the browser's locale,
 * and it sorts as it reads.
 */
export function timestampText(at: string | number | null | undefined, timeZone?: string): string {
  if (at === null || at === undefined) return "—";
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return "—";
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** An instant as a `<time>` element: the console's format for the reader, the ISO instant for machines. */
export function Timestamp({ at, timeZone }: { at: string | number | null | undefined; timeZone?: string }) {
  const date = at === null || at === undefined ? null : new Date(at);
  if (!date || Number.isNaN(date.getTime())) return <>—</>;
  // One instant reads as one piece: the date and the time never wrap apart (tables, timelines, 390 px screens).
  return (
    <time dateTime={date.toISOString()} className="whitespace-nowrap">
      {timestampText(at, timeZone)}
    </time>
  );
}

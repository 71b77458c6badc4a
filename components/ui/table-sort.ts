/** `descending`: newest, largest or last in the alphabet first, drawn ▼; `ascending` the other way, drawn ▲. */
export type SortDirection = "ascending" | "descending";

export type Sort = { key: string; direction: SortDirection };

/** The one arrow convention of every sortable table, matching its `aria-sort`. */
export function sortArrow(direction: SortDirection | undefined): "▼" | "▲" | "↕" {
  if (direction === "descending") return "▼";
  if (direction === "ascending") return "▲";
  return "↕";
}

/** A sorted copy of `rows`, stable for equal values. */
export function sortRows<Row>(rows: readonly Row[], value: (row: Row) => string | number, direction: SortDirection) {
  const sign = direction === "ascending" ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    return (x < y ? -1 : x > y ? 1 : 0) * sign;
  });
}

/** A click on a header: a new column starts descending (newest first), the sorted one flips. */
export function nextSort(current: Sort | undefined, key: string): Sort {
  if (current?.key !== key) return { key, direction: "descending" };
  return { key, direction: current.direction === "ascending" ? "descending" : "ascending" };
}

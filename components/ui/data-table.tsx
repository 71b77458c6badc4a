"use client";

import { type ReactNode, useMemo, useState } from "react";
import { Button } from "./button.tsx";

export type Column<Row> = {
  key: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** Present when the column can be sorted. */
  sortValue?: (row: Row) => string | number;
  /** Text that the filter box searches. */
  filterText?: (row: Row) => string;
  className?: string;
};

type Sort = { key: string; direction: "ascending" | "descending" };

/** A table with sorting, one text filter and pagination, in the manner of the shadcn data table. */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  initialSort,
  pageSize = 50,
  filterLabel = "Filter",
  toolbar,
}: {
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  initialSort?: Sort;
  pageSize?: number;
  filterLabel?: string;
  toolbar?: ReactNode;
}) {
  const [filter, setFilter] = useState("");
  const [sort, setSort] = useState<Sort | undefined>(initialSort);
  const [page, setPage] = useState(0);

  const visible = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    const filtered = needle
      ? rows.filter((row) => columns.some((column) => column.filterText?.(row).toLowerCase().includes(needle)))
      : rows;
    const column = sort && columns.find((c) => c.key === sort.key);
    if (!sort || !column?.sortValue) return filtered;
    const value = column.sortValue;
    const sign = sort.direction === "ascending" ? 1 : -1;
    return [...filtered].sort((a, b) => {
      const x = value(a);
      const y = value(b);
      return (x < y ? -1 : x > y ? 1 : 0) * sign;
    });
  }, [rows, columns, filter, sort]);

  const pageCount = Math.max(1, Math.ceil(visible.length / pageSize));
  const currentPage = Math.min(page, pageCount - 1);
  const pageRows = visible.slice(currentPage * pageSize, (currentPage + 1) * pageSize);

  function toggleSort(key: string) {
    setSort((current) =>
      current?.key === key
        ? { key, direction: current.direction === "ascending" ? "descending" : "ascending" }
        : { key, direction: "ascending" },
    );
  }

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-800">
          {filterLabel}
          <input
            type="search"
            value={filter}
            onChange={(event) => {
              setFilter(event.target.value);
              setPage(0);
            }}
            className="w-64 rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm font-normal focus-visible:outline-2 focus-visible:outline-blue-700"
          />
        </label>
        {toolbar}
      </div>
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-slate-100 text-xs uppercase tracking-wide text-slate-700">
            <tr>
              {columns.map((column) => (
                <th
                  key={column.key}
                  scope="col"
                  className="px-3 py-2 font-semibold"
                  aria-sort={sort?.key === column.key ? sort.direction : undefined}
                >
                  {column.sortValue ? (
                    <button
                      type="button"
                      onClick={() => toggleSort(column.key)}
                      className="inline-flex items-center gap-1 uppercase hover:text-slate-950 focus-visible:outline-2 focus-visible:outline-blue-700"
                    >
                      {column.header}
                      <span aria-hidden="true">
                        {sort?.key === column.key ? (sort.direction === "ascending" ? "▲" : "▼") : "↕"}
                      </span>
                    </button>
                  ) : (
                    column.header
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {pageRows.map((row) => (
              <tr key={rowKey(row)} className="hover:bg-slate-50">
                {columns.map((column) => (
                  <td key={column.key} className={`px-3 py-2 align-top ${column.className ?? ""}`}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
            {pageRows.length === 0 && (
              <tr>
                <td colSpan={columns.length} className="px-3 py-6 text-center text-slate-700">
                  No rows match “{filter}”.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <div className="flex items-center justify-between text-sm text-slate-700">
        <span>
          {visible.length} of {rows.length} shown
        </span>
        {pageCount > 1 && (
          <div className="flex items-center gap-2">
            <Button variant="secondary" size="sm" disabled={currentPage === 0} onClick={() => setPage(currentPage - 1)}>
              Previous page
            </Button>
            <span>
              Page {currentPage + 1} of {pageCount}
            </span>
            <Button
              variant="secondary"
              size="sm"
              disabled={currentPage >= pageCount - 1}
              onClick={() => setPage(currentPage + 1)}
            >
              Next page
            </Button>
          </div>
        )}
      </div>
    </div>
  );
}

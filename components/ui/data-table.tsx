"use client";

import { type ReactNode, useMemo, useState } from "react";
import { Button } from "./button.tsx";
import { SortableHeader, Table, TableBody, TableHead } from "./table.tsx";
import { nextSort, type Sort, sortRows } from "./table-sort.ts";

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
    return sortRows(filtered, column.sortValue, sort.direction);
  }, [rows, columns, filter, sort]);

  const pageCount = Math.max(1, Math.ceil(visible.length / pageSize));
  const currentPage = Math.min(page, pageCount - 1);
  const pageRows = visible.slice(currentPage * pageSize, (currentPage + 1) * pageSize);

  function toggleSort(key: string) {
    setSort((current) => nextSort(current, key));
  }

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex max-w-full flex-col gap-1 text-sm font-medium text-slate-800">
          {filterLabel}
          <input
            type="search"
            value={filter}
            onChange={(event) => {
              setFilter(event.target.value);
              setPage(0);
            }}
            className="w-64 max-w-full rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm font-normal focus-visible:outline-2 focus-visible:outline-blue-700"
          />
        </label>
        {toolbar}
      </div>
      <Table caption={caption} framed>
        <TableHead>
          {columns.map((column) =>
            column.sortValue ? (
              <SortableHeader
                key={column.key}
                direction={sort?.key === column.key ? sort.direction : undefined}
                onSort={() => toggleSort(column.key)}
              >
                {column.header}
              </SortableHeader>
            ) : (
              <th key={column.key} scope="col">
                {column.header}
              </th>
            ),
          )}
        </TableHead>
        <TableBody>
          {pageRows.map((row) => (
            <tr key={rowKey(row)} className="hover:bg-slate-50">
              {columns.map((column) => (
                <td key={column.key} className={column.className}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
          {pageRows.length === 0 && (
            <tr>
              <td colSpan={columns.length} className="text-center text-slate-700">
                No rows match “{filter}”.
              </td>
            </tr>
          )}
        </TableBody>
      </Table>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-700">
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

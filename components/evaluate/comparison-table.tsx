import type { Comparison } from "@/contract/evaluate/evaluations.ts";
import { Table, TableBody, TableHead } from "../ui/table.tsx";
import { decimal, latency, percent } from "./format.ts";

/** The AWS post's table (configuration, correct, p50, p95) plus calibration, and the items the two disagree on. */
export function ComparisonTable({ comparison }: { comparison: Comparison }) {
  const [a, b] = comparison.rows;
  return (
    <div className="flex flex-col gap-4">
      <Table caption="Side-by-side results" testId="comparison-table">
        <TableHead>
          {["Configuration", "Correct of answered", "p50", "p95", "Brier", "ECE", "Failed"].map((header) => (
            <th key={header} scope="col">
              {header}
            </th>
          ))}
        </TableHead>
        <TableBody>
          {comparison.rows.map((row) => (
            <tr key={row.label}>
              <th scope="row" className="font-medium">
                {row.label}
                {row.configuration && (
                  <span className="block text-xs font-normal text-slate-700">{row.configuration}</span>
                )}
              </th>
              <td className="tabular-nums">
                {row.correct}/{row.answered} ({percent(row.accuracy)})
              </td>
              <td className="tabular-nums">{latency(row.p50Ms)}</td>
              <td className="tabular-nums">{latency(row.p95Ms)}</td>
              <td className="tabular-nums">{decimal(row.brier)}</td>
              <td className="tabular-nums">{decimal(row.ece)}</td>
              <td className="tabular-nums">{row.failed}</td>
            </tr>
          ))}
        </TableBody>
      </Table>
      <div>
        <h3 className="text-sm font-semibold">
          Disagreements: {comparison.disagreements.length} of {comparison.compared} items compared
        </h3>
        {comparison.disagreements.length > 0 && (
          <Table
            caption="Items the two choose differently"
            size="xs"
            compact
            frameClassName="mt-2 max-h-80 overflow-y-auto"
          >
            <TableHead>
              <th scope="col">Item</th>
              <th scope="col">Answer</th>
              <th scope="col">{a?.label}</th>
              <th scope="col">{b?.label}</th>
            </TableHead>
            <TableBody>
              {comparison.disagreements.map((item) => (
                <tr key={item.itemId}>
                  <th scope="row" className="font-mono font-normal">
                    {item.itemId}
                  </th>
                  <td>{item.answer}</td>
                  {item.chosen.map((chosen, side) => (
                    <td
                      key={side === 0 ? "a" : "b"}
                      className={chosen === item.answer ? "text-green-800" : "text-red-800"}
                    >
                      {chosen ?? "failed"} {item.confidence[side] !== null && `(${percent(item.confidence[side])})`}
                    </td>
                  ))}
                </tr>
              ))}
            </TableBody>
          </Table>
        )}
      </div>
    </div>
  );
}

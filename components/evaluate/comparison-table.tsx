import type { Comparison } from "@/contract/evaluate/evaluations.ts";
import { decimal, latency, percent } from "./format.ts";

/** The AWS post's table (configuration, correct, p50, p95) plus calibration, and the items the two disagree on. */
export function ComparisonTable({ comparison }: { comparison: Comparison }) {
  const [a, b] = comparison.rows;
  return (
    <div className="flex flex-col gap-4">
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" data-testid="comparison-table">
          <caption className="sr-only">Side-by-side results</caption>
          <thead className="bg-slate-100 text-xs uppercase tracking-wide text-slate-700">
            <tr>
              {["Configuration", "Correct", "p50", "p95", "Brier", "ECE", "Errors"].map((header) => (
                <th key={header} scope="col" className="px-3 py-2">
                  {header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {comparison.rows.map((row) => (
              <tr key={row.label}>
                <th scope="row" className="px-3 py-2 font-medium">
                  {row.label}
                  {row.configuration && (
                    <span className="block text-xs font-normal text-slate-700">{row.configuration}</span>
                  )}
                </th>
                <td className="px-3 py-2 tabular-nums">
                  {row.correct}/{row.total} ({percent(row.accuracy)})
                </td>
                <td className="px-3 py-2 tabular-nums">{latency(row.p50Ms)}</td>
                <td className="px-3 py-2 tabular-nums">{latency(row.p95Ms)}</td>
                <td className="px-3 py-2 tabular-nums">{decimal(row.brier)}</td>
                <td className="px-3 py-2 tabular-nums">{decimal(row.ece)}</td>
                <td className="px-3 py-2 tabular-nums">{row.errors}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div>
        <h3 className="text-sm font-semibold">
          Disagreements: {comparison.disagreements.length} of {comparison.compared} items compared
        </h3>
        {comparison.disagreements.length > 0 && (
          <div className="mt-2 max-h-80 overflow-auto">
            <table className="w-full text-left text-xs">
              <caption className="sr-only">Items the two choose differently</caption>
              <thead className="bg-slate-100 uppercase text-slate-700">
                <tr>
                  <th scope="col" className="px-2 py-1">
                    Item
                  </th>
                  <th scope="col" className="px-2 py-1">
                    Answer
                  </th>
                  <th scope="col" className="px-2 py-1">
                    {a?.label}
                  </th>
                  <th scope="col" className="px-2 py-1">
                    {b?.label}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {comparison.disagreements.map((item) => (
                  <tr key={item.itemId}>
                    <th scope="row" className="px-2 py-1 font-mono font-normal">
                      {item.itemId}
                    </th>
                    <td className="px-2 py-1">{item.answer}</td>
                    {item.chosen.map((chosen, side) => (
                      <td
                        key={side === 0 ? "a" : "b"}
                        className={`px-2 py-1 ${chosen === item.answer ? "text-green-800" : "text-red-800"}`}
                      >
                        {chosen ?? "failed"} {item.confidence[side] !== null && `(${percent(item.confidence[side])})`}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </div>
  );
}

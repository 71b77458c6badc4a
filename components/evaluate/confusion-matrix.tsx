import type { ConfusionMatrix as Matrix } from "@/contract/evaluate/metrics.ts";
import { Table, TableBody, TableHead } from "../ui/table.tsx";

/**
 * Rows: the right answer; columns: the chosen option (by id when the items share one option set, else by position).
 * The diagonal is correct. The most frequent confusions follow, by option id.
 */
export function ConfusionMatrix({ matrix }: { matrix: Matrix }) {
  const caption =
    matrix.by === "option" ? "Confusion matrix" : "Confusion by option position (the items have different options)";
  const max = Math.max(1, ...matrix.counts.flat());
  const hasUnscored = Object.keys(matrix.unscored).length > 0;
  return (
    <div>
      <Table
        caption={caption}
        captionClassName="mb-1 text-left text-sm font-medium text-slate-800"
        size="xs"
        compact
        fit
        testId="confusion-matrix"
      >
        <TableHead plain>
          <th scope="col" className="text-left text-slate-700">
            answer \ chosen
          </th>
          {matrix.labels.map((label) => (
            <th key={label} scope="col">
              {label}
            </th>
          ))}
          {hasUnscored && <th scope="col">failed</th>}
        </TableHead>
        <TableBody divided={false}>
          {matrix.labels.map((label, row) => (
            <tr key={label}>
              <th scope="row" className="text-left font-semibold">
                {label}
              </th>
              {matrix.counts[row]?.map((count, column) => (
                <td
                  key={matrix.labels[column]}
                  className={`text-center tabular-nums ${row === column ? "font-semibold" : ""}`}
                  style={{
                    backgroundColor: count ? `rgba(29, 78, 216, ${(0.1 + (0.6 * count) / max).toFixed(2)})` : undefined,
                  }}
                >
                  {count}
                </td>
              ))}
              {hasUnscored && <td className="text-center tabular-nums">{matrix.unscored[label] ?? 0}</td>}
            </tr>
          ))}
        </TableBody>
      </Table>
      {matrix.topConfusions.length > 0 && (
        <div className="mt-3">
          <h4 className="text-sm font-medium text-slate-800">Most frequent confusions</h4>
          <ol className="mt-1 list-decimal pl-5 text-xs" data-testid="top-confusions">
            {matrix.topConfusions.map((confusion) => (
              <li key={`${confusion.answer}→${confusion.chosen}`}>
                <span className="font-mono">{confusion.answer}</span> chosen as{" "}
                <span className="font-mono">{confusion.chosen}</span>: {confusion.count}
              </li>
            ))}
          </ol>
        </div>
      )}
    </div>
  );
}

import type { DecisionKindSummary, MonitoringResponse } from "@/contract/endpoints/monitoring.ts";
import { HistogramChart } from "../charts/histogram-chart.tsx";
import { LineChart } from "../charts/line-chart.tsx";
import { ShareChart } from "../charts/share-chart.tsx";
import { Card } from "../ui/card.tsx";
import { Table, TableBody, TableHead } from "../ui/table.tsx";
import { kindFigures, shareText } from "./monitoring-figures.ts";

const ms = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(0)} ms`);

/** A decision kind's name on the page: its question and its option set (two kinds may ask the same question). */
export const kindName = (kind: Pick<DecisionKindSummary, "question" | "options">) =>
  `${kind.question || "(no question)"} (${kind.options.join(", ")})`;

/** One decision kind's details, opened from its row: chosen options, and its charts over the window. */
export function KindDetails({
  kind,
  window,
  id,
}: {
  kind: DecisionKindSummary;
  window: Pick<MonitoringResponse, "from" | "to" | "intervalSeconds" | "threshold">;
  id: string;
}) {
  const figures = kindFigures(kind);
  return (
    <Card title={kindName(kind)}>
      <section id={id} aria-label={`Decision kind ${kindName(kind)}`} data-kind={kind.kind}>
        <p className="mb-2 text-xs text-slate-700">
          {kind.decisions} decisions over options {kind.options.join(", ")}; below the threshold{" "}
          {shareText(kind.belowThreshold, kind.decisions)}
          {kind.latency ? `; latency mean ${ms(kind.latency.meanMs)}, p95 ${ms(kind.latency.p95Ms)}` : ""}.
        </p>
        {kind.labelled && (
          <p className="mb-2 text-xs text-slate-700" data-testid="live-accuracy">
            Live accuracy on {kind.labelled.labelled} labelled decisions:{" "}
            {kind.labelled.accuracy === null ? "—" : `${(kind.labelled.accuracy * 100).toFixed(1)}%`}, expected
            calibration error {kind.labelled.ece === null ? "—" : kind.labelled.ece.toFixed(3)}.
          </p>
        )}
        <Table
          caption="Chosen options of this decision kind"
          testId="chosen-options"
          compact
          fit
          className="mb-3 tabular-nums"
        >
          <TableHead plain>
            <th scope="col">Option</th>
            <th scope="col" className="text-right">
              Chosen
            </th>
            <th scope="col" className="text-right">
              Share
            </th>
          </TableHead>
          <TableBody divided={false}>
            {kind.chosen.map((entry) => (
              <tr key={entry.option} data-option={entry.option}>
                <td>{entry.option}</td>
                <td className="text-right">{entry.decisions}</td>
                <td className="text-right">{shareText(entry.decisions, kind.decisions)}</td>
              </tr>
            ))}
          </TableBody>
        </Table>
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          <LineChart
            title="Decisions"
            unit="per interval"
            points={figures.decisions}
            from={window.from}
            to={window.to}
          />
          <ShareChart
            title="Chosen option"
            categories={kind.options}
            periods={figures.chosen}
            periodSeconds={window.intervalSeconds}
            from={window.from}
            to={window.to}
          />
          <HistogramChart
            title="Top probability"
            unit="decisions"
            bars={figures.topProbability}
            marker={{ value: window.threshold, label: `threshold ${window.threshold.toFixed(2)}` }}
          />
          <LineChart
            title="Fallback rate"
            unit="% below threshold"
            points={figures.fallbackRate}
            from={window.from}
            to={window.to}
          />
          <LineChart title="Latency p95" unit="ms" points={figures.latencyP95} from={window.from} to={window.to} />
        </div>
      </section>
    </Card>
  );
}

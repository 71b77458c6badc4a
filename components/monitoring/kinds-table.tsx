import type { TrafficSources } from "@/contract/endpoints/monitoring.ts";
import { Badge, type Tone } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";
import { Table, TableBody, TableHead } from "../ui/table.tsx";
import type { DriftState, KindRow } from "./kind-rows.ts";

const driftTones: Record<DriftState, Tone> = {
  ALARM: "danger",
  OK: "success",
  INSUFFICIENT_DATA: "neutral",
  "no alarm set": "neutral",
  "no baseline": "neutral",
};
const driftWords: Record<DriftState, string> = {
  ALARM: "alarm",
  OK: "OK",
  INSUFFICIENT_DATA: "insufficient data",
  "no alarm set": "no alarm set",
  "no baseline": "no baseline",
};

const percentText = (share: number | null) => (share === null ? "–" : `${(share * 100).toFixed(1)}%`);

/** "12 gateway · 88 direct", with evaluation traffic when it is counted. */
export function sourcesText(sources: TrafficSources): string {
  const parts = [`${sources.gateway} gateway`, `${sources.direct} direct`];
  if (sources.evaluation > 0) parts.push(`${sources.evaluation} evaluation`);
  return parts.join(" · ");
}

/**
 * The Monitoring page's lead: one row per decision kind with its figures and flags, each row opening that kind's
 * charts below the table.
 */
export function KindsTable({
  rows,
  open,
  detailsId,
  onToggle,
}: {
  rows: KindRow[];
  open: ReadonlySet<string>;
  detailsId: (kind: string) => string;
  onToggle: (kind: string) => void;
}) {
  return (
    <Table caption="Decision kinds in the window" testId="decision-kinds" className="tabular-nums">
      <TableHead>
        <th scope="col">Decision kind</th>
        <th scope="col" className="text-right">
          Decisions
        </th>
        <th scope="col">Top option</th>
        <th scope="col" className="text-right">
          Fallback
        </th>
        <th scope="col" className="text-right">
          Live accuracy
        </th>
        <th scope="col">Drift</th>
        <th scope="col">Flags</th>
        {/* An sr-only span is placed absolutely: in a table wider than a phone it would widen the page. */}
        <th scope="col" className="relative">
          <span className="sr-only">Details</span>
        </th>
      </TableHead>
      <TableBody>
        {rows.map((row) => {
          const isOpen = open.has(row.kind);
          return (
            <tr key={row.kind} data-kind={row.kind}>
              <td className="min-w-48">
                <div className="font-medium">{row.question || "(no question)"}</div>
                <div className="text-xs text-slate-700" data-testid="kind-options">
                  Options: {row.options.join(", ")}
                </div>
              </td>
              <td className="text-right">
                <div data-testid="kind-decisions">{row.decisions}</div>
                <div className="whitespace-nowrap text-xs text-slate-700" data-testid="kind-sources">
                  {sourcesText(row.sources)}
                </div>
              </td>
              <td className="whitespace-nowrap">{row.top ? `${row.top.option} ${percentText(row.top.share)}` : "–"}</td>
              <td className="text-right">{percentText(row.fallbackRate)}</td>
              <td className="whitespace-nowrap text-right">
                {row.liveAccuracy
                  ? `${percentText(row.liveAccuracy.accuracy)} of ${row.liveAccuracy.labelled}`
                  : "no labels"}
              </td>
              <td>
                <Badge tone={driftTones[row.drift]}>{driftWords[row.drift]}</Badge>
              </td>
              <td>
                {row.flags.length === 0 ? (
                  "–"
                ) : (
                  <ul className="flex flex-wrap gap-1">
                    {row.flags.map((flag) => (
                      <li key={flag.id} data-testid="kind-flag" data-flag={flag.id}>
                        <Badge tone="warning">{flag.text}</Badge>
                      </li>
                    ))}
                  </ul>
                )}
              </td>
              <td>
                <Button
                  type="button"
                  size="sm"
                  variant="secondary"
                  aria-expanded={isOpen}
                  aria-controls={isOpen ? detailsId(row.kind) : undefined}
                  aria-label={`${isOpen ? "Hide details" : "Details"} of ${row.question} (${row.options.join(", ")})`}
                  onClick={() => onToggle(row.kind)}
                >
                  {isOpen ? "Hide details" : "Details"}
                </Button>
              </td>
            </tr>
          );
        })}
      </TableBody>
    </Table>
  );
}

import type { DecisionKindSummary } from "@/contract/endpoints/monitoring.ts";
import type { HistogramBar } from "../charts/histogram-chart.tsx";
import type { ChartPoint } from "../charts/line-chart.tsx";
import type { SharePeriod } from "../charts/share-chart.tsx";

/** What a decision kind's charts draw, from the Monitoring answer. */
export interface KindFigures {
  decisions: ChartPoint[];
  fallbackRate: ChartPoint[];
  latencyP95: ChartPoint[];
  chosen: SharePeriod[];
  topProbability: HistogramBar[];
}

export function kindFigures(kind: DecisionKindSummary): KindFigures {
  return {
    decisions: kind.intervals.map((interval) => ({ at: interval.at, value: interval.decisions })),
    fallbackRate: kind.intervals.map((interval) => ({
      at: interval.at,
      value: interval.decisions === 0 ? 0 : (100 * interval.belowThreshold) / interval.decisions,
    })),
    latencyP95: kind.intervals.flatMap((interval) =>
      interval.latency ? [{ at: interval.at, value: interval.latency.p95Ms }] : [],
    ),
    chosen: kind.intervals.map((interval) => ({ at: interval.at, counts: interval.chosen })),
    topProbability: kind.topProbability.map((bar) => ({ from: bar.from, to: bar.to, count: bar.decisions })),
  };
}

export const shareText = (part: number, whole: number) => (whole === 0 ? "–" : `${((100 * part) / whole).toFixed(1)}%`);

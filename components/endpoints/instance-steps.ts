import type { InstanceSeries } from "@/contract/endpoints/metrics.ts";
import type { ChartPoint } from "../charts/line-chart.tsx";

/**
 * A step series as the corners of its line: each count holds until the next change (drawn vertically there) and the
 * last one until `until`, so a line chart draws steps rather than ramps between changes.
 */
export function stepCorners(points: InstanceSeries["points"], until: string): ChartPoint[] {
  return points.flatMap((point, index) => {
    const end = points[index + 1]?.at ?? (until > point.at ? until : point.at);
    return [point, { at: end, value: point.value }];
  });
}

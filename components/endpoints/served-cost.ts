import type { EndpointMetricsResponse } from "@/contract/endpoints/metrics.ts";
import { instanceHours, servedCostPerThousand } from "@/contract/pricing/cost-per-decision.ts";
import { priceForInstances } from "@/contract/pricing/prices.ts";

export interface ServedCost {
  decisions: number;
  instanceHours: number;
  instanceHourPriceUsd: number | null;
  perThousandUsd: number | null;
}

/**
 * What the charted window's decisions cost: the decisions CloudWatch counted (Invocations; InvocationsProcesssed on an
 * asynchronous endpoint, which publishes no Invocations), and the instance-hours of the charted variant from its
 * instance-count series up to now (the current count over the window when the series is empty), at one instance's
 * bundled hourly price.
 */
export function servedCost(
  metrics: EndpointMetricsResponse,
  serving: { instanceType: string | null; instanceCount: number | null },
  asynchronous: boolean,
  nowMs: number,
): ServedCost {
  const counted = asynchronous ? "InvocationsProcesssed" : "Invocations";
  const decisions =
    metrics.series.find((series) => series.metric === counted)?.points.reduce((sum, point) => sum + point.value, 0) ??
    0;
  const until = new Date(Math.min(Date.parse(metrics.to), nowMs)).toISOString();
  const steps = metrics.instances.find((series) => series.variantName === metrics.variantName)?.points ?? [];
  const hours =
    steps.length > 0
      ? instanceHours(steps, metrics.from, until)
      : instanceHours([{ at: metrics.from, value: serving.instanceCount ?? 0 }], metrics.from, until);
  const instanceHourPriceUsd = priceForInstances(serving.instanceType, 1);
  return {
    decisions,
    instanceHours: hours,
    instanceHourPriceUsd,
    perThousandUsd: servedCostPerThousand({ instanceHourPriceUsd, instanceHours: hours, decisions }),
  };
}

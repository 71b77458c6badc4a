/**
 * What 1,000 decisions cost on an endpoint, in USD: the price of the instance-hours divided by the decisions they
 * served. Instances bill by the hour whether they answer or idle, so a quiet endpoint's decisions are dear.
 */

/** From what an endpoint served: the instance-hours it ran at one instance's hourly price, and the decisions made. */
export function servedCostPerThousand(input: {
  instanceHourPriceUsd: number | null;
  instanceHours: number;
  decisions: number;
}): number | null {
  const { instanceHourPriceUsd, instanceHours, decisions } = input;
  if (instanceHourPriceUsd === null || decisions <= 0 || instanceHours <= 0) return null;
  return ((instanceHourPriceUsd * instanceHours) / decisions) * 1000;
}

/**
 * Instance-hours from `from` to `to` of a step series of instance counts (each point's count holds from its time
 * until the next point's), as the endpoint's metrics give it from its scaling activities.
 */
export function instanceHours(points: readonly { at: string; value: number }[], from: string, to: string): number {
  const start = Date.parse(from);
  const end = Date.parse(to);
  const sorted = [...points].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  let total = 0;
  sorted.forEach((point, i) => {
    const next = sorted[i + 1];
    const segmentStart = Math.max(start, Date.parse(point.at));
    const segmentEnd = Math.min(end, next ? Date.parse(next.at) : end);
    if (segmentEnd > segmentStart) total += point.value * (segmentEnd - segmentStart);
  });
  return total / 3_600_000;
}

/**
 * From an evaluation: the endpoint kept `concurrency` requests in flight, each taking `meanLatencyMs` on average, so
 * (Little's law) it answered concurrency / mean latency decisions a second. That is what the instances cost per
 * 1,000 decisions when kept that busy: the floor a production endpoint of the same configuration reaches at full use.
 */
export function evaluatedCostPerThousand(input: {
  hourlyPriceUsd: number | null;
  meanLatencyMs: number | null;
  concurrency: number;
}): number | null {
  const { hourlyPriceUsd, meanLatencyMs, concurrency } = input;
  if (hourlyPriceUsd === null || meanLatencyMs === null || meanLatencyMs <= 0 || concurrency <= 0) return null;
  const decisionsPerHour = (concurrency * 3_600_000) / meanLatencyMs;
  return (hourlyPriceUsd / decisionsPerHour) * 1000;
}

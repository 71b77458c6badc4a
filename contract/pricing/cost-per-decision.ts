/**
 * What 1,000 decisions cost on an endpoint, in USD: the price of the instance-hours divided by the decisions they
 * served. Instances bill by the hour whether they answer or idle, so a quiet endpoint's decisions are dear.
 */

/** From what an endpoint served: its hourly price (all instances) over `hours`, during which it made `decisions`. */
export function servedCostPerThousand(input: {
  hourlyPriceUsd: number | null;
  hours: number;
  decisions: number;
}): number | null {
  const { hourlyPriceUsd, hours, decisions } = input;
  if (hourlyPriceUsd === null || decisions <= 0 || hours <= 0) return null;
  return ((hourlyPriceUsd * hours) / decisions) * 1000;
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

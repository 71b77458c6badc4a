/**
 * On-demand SageMaker real-time inference prices, USD per instance-hour, us-east-1, Linux.
 * Bundled (no pricing API is called at runtime); compiled from the public SageMaker pricing page on the date below.
 * Prices change and differ by region: the console labels them with this date and treats them as estimates.
 */
export const pricesAsOf = "2025-10-01";

export const hourlyPriceUsd: Readonly<Record<string, number>> = {
  "ml.m5.large": 0.115,
  "ml.m5.xlarge": 0.23,
  "ml.c6i.large": 0.102,
  "ml.c6i.xlarge": 0.204,
  "ml.c6i.2xlarge": 0.408,
  "ml.c6i.4xlarge": 0.816,
  "ml.c6i.8xlarge": 1.632,
  "ml.c7i.2xlarge": 0.428,
  "ml.g4dn.xlarge": 0.736,
  "ml.g4dn.2xlarge": 0.94,
  "ml.g5.xlarge": 1.408,
  "ml.g5.2xlarge": 1.515,
  "ml.g6.xlarge": 1.006,
  "ml.g6.2xlarge": 1.222,
  "ml.g6e.xlarge": 2.336,
  "ml.g6e.2xlarge": 2.834,
};

/** Hourly price of `count` instances of `instanceType`, or null when the type is not in the table. */
export function priceForInstances(instanceType: string | null, count: number | null): number | null {
  if (instanceType === null) return null;
  const price = hourlyPriceUsd[instanceType];
  if (price === undefined) return null;
  return Math.round(price * (count ?? 1) * 1000) / 1000;
}

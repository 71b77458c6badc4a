/**
 * Round tick values from 0 to at most `max`: the largest step of 1, 2 or 5 times a power of ten that still gives
 * `count` ticks or more. An axis that ends on a run's own maximum reads "29.623 s" and "59.247 s"; round ticks let a
 * reader compare bars at a glance.
 */
export function niceTicks(max: number, count = 3): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0];
  const power = 10 ** Math.floor(Math.log10(max));
  const steps = [5, 2, 1, 0.5, 0.2, 0.1].map((factor) => factor * power);
  const step = steps.find((candidate) => Math.floor(max / candidate + 1e-9) + 1 >= count) ?? (steps.at(-1) as number);
  const ticks: number[] = [];
  // Fixed to the step's own decimals, so 0.1 + 0.2 is 0.3 and not 0.30000000000000004.
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  for (let value = 0; value <= max * (1 + 1e-9); value += step) ticks.push(Number(value.toFixed(decimals)));
  return ticks;
}

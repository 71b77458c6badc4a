const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumSignificantDigits: 3 });
const plain = new Intl.NumberFormat("en-US", { maximumSignificantDigits: 3 });
const whole = new Intl.NumberFormat("en-US");

/**
 * A number as an axis or a summary shows it: at most three significant digits, never in exponent notation (an
 * average latency of 1,050 ms was "1.05e+3", clipped to "05e+3" at the axis), thousands as 12.3K.
 */
export function readableNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value) && Math.abs(value) < 10_000) return whole.format(value);
  return Math.abs(value) >= 10_000 ? compact.format(value) : plain.format(value);
}

/** Steps a time axis may tick at, smallest first. */
const steps = [5, 10, 15, 30, 60, 120, 180, 360, 720, 1440, 2880].map((minutes) => minutes * 60_000);

const day = 86_400_000;

/**
 * Ticks for a time axis from `t0` to `t1` (epoch ms): at most `most` of them, on round local times (whole hours,
 * local midnights), labelled in the reader's own time zone: the clock within a day, the weekday and date beyond.
 */
export function timeTicks(t0: number, t1: number, most = 4): { value: number; text: string }[] {
  if (!(t1 > t0)) return Number.isFinite(t0) ? [{ value: t0, text: clockText(t0) }] : [];
  const span = t1 - t0;
  const step = steps.find((candidate) => span / candidate <= most) ?? Math.ceil(span / most / day) * day;
  // Round in local time: an hour or a day starts at a local boundary, not a UTC one.
  const offset = -new Date(t0).getTimezoneOffset() * 60_000;
  const first = Math.ceil((t0 + offset) / step) * step - offset;
  const ticks: { value: number; text: string }[] = [];
  for (let t = first; t <= t1; t += step) ticks.push({ value: t, text: step >= day ? dayText(t) : clockText(t) });
  return ticks;
}

/** `14:05` in the reader's time zone. */
export function clockText(t: number): string {
  return new Date(t).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
}

/** `Tue 1` in the reader's time zone. */
function dayText(t: number): string {
  return new Date(t).toLocaleDateString(undefined, { weekday: "short", day: "numeric" });
}

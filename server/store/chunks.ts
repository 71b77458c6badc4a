/**
 * `rows` in runs of `size`: what one multi-row INSERT (or IN list) may carry. Keep size × columns well under both
 * dialects' limits on bound parameters (SQLite 32,766; PostgreSQL 65,535).
 */
export function* chunks<T>(rows: readonly T[], size: number): Generator<T[]> {
  for (let start = 0; start < rows.length; start += size) yield rows.slice(start, start + size);
}

/** ADAPTER_READING_CACHE: final readings kept for exact repeats (entries; 0 turns the cache off). */
export const DEFAULT_READING_CACHE_ENTRIES = 1024;

export function readingCacheEntries(env: Record<string, string | undefined>): number {
  const raw = env.ADAPTER_READING_CACHE;
  if (raw === undefined || raw === "") return DEFAULT_READING_CACHE_ENTRIES;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 1_000_000) {
    throw new Error(`ADAPTER_READING_CACHE must be an integer from 0 to 1000000, got "${raw}"`);
  }
  return value;
}

import { createHash } from "node:crypto";
import type { Token } from "node-llama-cpp";

/**
 * A bounded LRU cache of final readings (the logits read at a branch's positions), so an exact repeat of a prompt
 * (a client retry, an evaluation rerun) costs no forward pass. The key is the exact token ids evaluated, where and
 * what was read, the model's sha256, the temperature and the request's cache partition (`prompt_cache_key`: a
 * repeat under another key is evaluated again); a hit returns the very numbers the first evaluation produced, so a
 * repeat is bit-identical. `ADAPTER_READING_CACHE` entries (0 turns it off).
 */
export class ReadingCache<T> {
  private readonly entries = new Map<string, T>();
  hits = 0;
  misses = 0;

  constructor(
    readonly capacity: number,
    private readonly scope: { modelSha256: string; temperature: number },
  ) {}

  get size(): number {
    return this.entries.size;
  }

  key(tokens: readonly Token[], readings: unknown, partition: string | null): string {
    return createHash("sha256")
      .update(`${this.scope.modelSha256}\n${this.scope.temperature}\n${JSON.stringify(partition)}\n`)
      .update(`${tokens.join(",")}\n${JSON.stringify(readings)}`)
      .digest("hex");
  }

  get(key: string): T | undefined {
    const value = this.entries.get(key);
    if (value === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: string, value: T): void {
    if (this.capacity === 0) return;
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  clear(): void {
    this.entries.clear();
  }
}

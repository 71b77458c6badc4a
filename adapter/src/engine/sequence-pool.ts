import type { LlamaContext, LlamaContextSequence, Token } from "node-llama-cpp";
import type { BranchSchedule } from "../contract/branch-schedule.ts";
import { THROWING_CONTEXT_SHIFT } from "./context-shift.ts";

/** A request's hold on the pool: one sequence for the whole request, plus idle sequences borrowed for a while. */
export type SequenceLease = {
  sequence: LlamaContextSequence;
  /** The request's cache partition (OpenAI's `prompt_cache_key`; null: none): it reuses nothing of another one. */
  partition: string | null;
  /**
   * Takes up to `max` more sequences that are idle right now (never waits), those holding the longest start of
   * `tokens` first. They are the request's until `giveBack` or the end of the lease. With the `serial` branch
   * schedule it lends none: the request's branches run one after another on its own sequence.
   */
  borrow(max: number, tokens: readonly Token[]): Promise<LlamaContextSequence[]>;
  giveBack(sequences: readonly LlamaContextSequence[]): void;
  /**
   * The sequences in llama.cpp sequence-id order. llama.cpp splits a batch over several KV streams into micro-batches
   * of consecutive sequence ids, so lanes submitted in this order share the fewest, largest micro-batches.
   */
  inIdOrder(sequences: readonly LlamaContextSequence[]): LlamaContextSequence[];
};

/**
 * The context's sequences (ADAPTER_PARALLEL of them). A request leases one for its whole evaluation, waiting in
 * order while all are busy (admission bounds how many wait); requests on different sequences are evaluated by
 * node-llama-cpp in shared batches where they overlap. The sequences' evaluated tokens are the prefix cache: a
 * request gets the idle sequence holding the longest start of its prompt, else the least recently used one, so
 * recent prompts stay cached longest. While it scores several branches (shared decisions, option orders,
 * questions) a request borrows whichever other sequences are idle at that moment, and never waits for them.
 *
 * Each sequence's tokens belong to the cache partition of the request that evaluated them: a request of another
 * partition never reuses them (the sequence is emptied before it is handed over), so requests with different
 * `prompt_cache_key`s share no evaluated state, and those with the same key find theirs first.
 */
export class SequencePool {
  readonly size: number;
  private readonly idle: LlamaContextSequence[];
  private readonly lastUsed = new Map<LlamaContextSequence, number>();
  private readonly partitions = new Map<LlamaContextSequence, string | null>();
  /** node-llama-cpp numbers a fresh context's sequences 0, 1, ... in the order they are created. */
  private readonly ids = new Map<LlamaContextSequence, number>();
  private readonly waiting: Array<(sequence: LlamaContextSequence) => void> = [];
  private clock = 0;

  constructor(
    context: LlamaContext,
    size: number,
    readonly schedule: BranchSchedule = "batched",
  ) {
    this.size = size;
    this.idle = Array.from({ length: size }, () => context.getSequence({ contextShift: THROWING_CONTEXT_SHIFT }));
    for (const [id, sequence] of this.idle.entries()) this.ids.set(sequence, id);
  }

  get idleCount(): number {
    return this.idle.length;
  }

  async lease<T>(
    tokens: readonly Token[],
    use: (lease: SequenceLease) => Promise<T>,
    partition: string | null = null,
  ): Promise<T> {
    const sequence =
      this.take(1, tokens, partition)[0] ?? (await new Promise<LlamaContextSequence>((r) => this.waiting.push(r)));
    const borrowed = new Set<LlamaContextSequence>();
    const lease: SequenceLease = {
      sequence,
      partition,
      borrow: async (max, wanted) => {
        if (this.schedule === "serial") return [];
        const taken = this.take(max, wanted, partition);
        for (const lane of taken) borrowed.add(lane);
        await Promise.all(taken.map((lane) => this.enter(lane, partition)));
        return taken;
      },
      giveBack: (sequences) => {
        for (const lane of sequences) {
          if (borrowed.delete(lane)) this.release(lane);
        }
      },
      inIdOrder: (sequences) => [...sequences].sort((a, b) => (this.ids.get(a) ?? 0) - (this.ids.get(b) ?? 0)),
    };
    try {
      await this.enter(sequence, partition);
      return await use(lease);
    } catch (error) {
      // A failed evaluation may leave state half-written: those sequences start clean next time.
      await Promise.all([sequence, ...borrowed].map((held) => held.clearHistory().catch(() => undefined)));
      throw error;
    } finally {
      for (const lane of borrowed) this.release(lane);
      this.release(sequence);
    }
  }

  /** Empties every idle sequence (benchmarks measuring cold evaluation). */
  async clearIdle(): Promise<void> {
    await Promise.all(this.idle.map((sequence) => sequence.clearHistory()));
  }

  /** Empties a sequence whose tokens belong to another partition, and gives it to `partition`. */
  private async enter(sequence: LlamaContextSequence, partition: string | null): Promise<void> {
    if ((this.partitions.get(sequence) ?? null) === partition) return;
    await sequence.clearHistory();
    this.partitions.set(sequence, partition);
  }

  private take(max: number, tokens: readonly Token[], partition: string | null): LlamaContextSequence[] {
    const ranked = this.idle
      .map((sequence) => ({
        sequence,
        held:
          tokens.length === 0 || (this.partitions.get(sequence) ?? null) !== partition
            ? 0
            : sequence.compareContextTokens([...tokens]).firstDifferentIndex,
        used: this.lastUsed.get(sequence) ?? -1,
      }))
      .sort((a, b) => b.held - a.held || a.used - b.used)
      .slice(0, Math.max(0, max));
    for (const { sequence } of ranked) this.idle.splice(this.idle.indexOf(sequence), 1);
    return ranked.map(({ sequence }) => sequence);
  }

  private release(sequence: LlamaContextSequence): void {
    this.lastUsed.set(sequence, ++this.clock);
    const next = this.waiting.shift();
    if (next) next(sequence);
    else this.idle.push(sequence);
  }
}

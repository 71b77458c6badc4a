import type { LlamaContext, LlamaContextSequence, Token } from "node-llama-cpp";
import { THROWING_CONTEXT_SHIFT } from "./branch-scoring.ts";

/**
 * The context's sequences (ADAPTER_PARALLEL of them). A request leases one for its whole evaluation; requests on
 * different sequences are evaluated by node-llama-cpp in shared batches where they overlap. A free sequence that
 * already holds the longest part of the wanted prefix is preferred, so a repeated state reuses its evaluation.
 */
export class SequencePool {
  private readonly free: LlamaContextSequence[];
  private readonly waiting: Array<(sequence: LlamaContextSequence) => void> = [];

  constructor(context: LlamaContext, size: number) {
    this.free = Array.from({ length: size }, () => context.getSequence({ contextShift: THROWING_CONTEXT_SHIFT }));
  }

  async lease<T>(prefix: readonly Token[], use: (sequence: LlamaContextSequence) => Promise<T>): Promise<T> {
    const sequence = await this.acquire(prefix);
    try {
      return await use(sequence);
    } catch (error) {
      // A failed evaluation may leave the sequence's state half-written: start it clean next time.
      await sequence.clearHistory().catch(() => undefined);
      throw error;
    } finally {
      this.release(sequence);
    }
  }

  private acquire(prefix: readonly Token[]): Promise<LlamaContextSequence> {
    if (this.free.length === 0) return new Promise((resolve) => this.waiting.push(resolve));
    let best = 0;
    let bestShared = -1;
    for (const [index, sequence] of this.free.entries()) {
      const shared = sequence.compareContextTokens([...prefix]).firstDifferentIndex;
      if (shared > bestShared) {
        best = index;
        bestShared = shared;
      }
    }
    return Promise.resolve(this.free.splice(best, 1)[0]!);
  }

  private release(sequence: LlamaContextSequence): void {
    const next = this.waiting.shift();
    if (next) next(sequence);
    else this.free.push(sequence);
  }
}

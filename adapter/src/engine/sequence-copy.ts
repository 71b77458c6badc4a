import type { LlamaContextSequence } from "node-llama-cpp";

/**
 * The one place that touches node-llama-cpp internals: copying one context sequence's evaluated state (KV cache
 * cells, recurrent state, checkpoints) into another, llama.cpp's `llama_memory_seq_cp`. node-llama-cpp 3.22.1
 * exposes it only as the internal `LlamaContextSequence._copyStateFromOtherSequence(other, upToTokenIndex)`, which
 * calls the addon's `copySequenceStateFromOtherSequence`, copies the token list and checkpoints, and erases what
 * lies beyond `upToTokenIndex`. The version is pinned exactly; `test/sequence-copy.model.test.ts` fails loudly
 * if these internals change, and `assertSequenceCopyAvailable` refuses to start on a build without them.
 */

type Internals = {
  _copyStateFromOtherSequence?: (other: LlamaContextSequence, upToTokenIndex: number) => Promise<boolean>;
  _context?: { _ctx?: { copySequenceStateFromOtherSequence?: unknown } };
};

const internals = (sequence: LlamaContextSequence) => sequence as unknown as Internals;

export function assertSequenceCopyAvailable(sequence: LlamaContextSequence): void {
  const inner = internals(sequence);
  if (
    typeof inner._copyStateFromOtherSequence !== "function" ||
    typeof inner._context?._ctx?.copySequenceStateFromOtherSequence !== "function"
  ) {
    throw new Error(
      "node-llama-cpp no longer has LlamaContextSequence._copyStateFromOtherSequence or the addon's " +
        "copySequenceStateFromOtherSequence: the adapter is pinned to node-llama-cpp 3.22.1",
    );
  }
}

/**
 * Makes `target` hold the first `length` evaluated tokens of `source` (which must hold at least that many).
 * Resolves false when the state could not be copied exactly (the addon copied fewer cells than the source's token
 * list, or the tail beyond `length` could not be erased); `target` is then emptied, so its token list never
 * claims state it lacks, and the caller evaluates instead. Both sequences must be held by the caller, so neither
 * changes while the copy runs.
 */
export async function copySequencePrefix(
  target: LlamaContextSequence,
  source: LlamaContextSequence,
  length: number,
): Promise<boolean> {
  if (source.nextTokenIndex < length) throw new Error("the source sequence holds fewer tokens than asked to copy");
  const copy = internals(target)._copyStateFromOtherSequence!;
  const copied = await copy.call(target, source, length);
  if (copied === true && target.nextTokenIndex === length) return true;
  await target.clearHistory();
  return false;
}

import type { ControlledEvaluateInputItem, LlamaContextSequence, Token } from "node-llama-cpp";
import { THROWING_CONTEXT_SHIFT } from "./context-shift.ts";
import type { ReadingCache } from "./reading-cache.ts";
import { copySequencePrefix } from "./sequence-copy.ts";
import type { SequenceLease } from "./sequence-pool.ts";

/**
 * The scoring primitive every API builds on (decisions, /v1/systemone, debiasing): a prefix evaluated once, then
 * branches after it, reading next-token logits at chosen positions. No token is ever generated.
 *
 * The prefix gets a forward pass of its own on the request's sequence. Its state is then copied to as many idle
 * sequences as there are further branches (llama.cpp's `llama_memory_seq_cp`, `sequence-copy.ts`), and the
 * branches' suffixes are evaluated on those lanes together, so node-llama-cpp puts them into one batch: one
 * forward pass for all suffixes instead of one per suffix. More branches than lanes run in rounds, each lane
 * trimming itself back to the prefix. When no other sequence is idle, or the pool lends none (the `serial` branch
 * schedule, the CPU default), the branches run one after another on the request's own sequence (the serial path),
 * each keeping what it shares with the branch before; nothing ever waits for a lane.
 *
 * Every sequence keeps what it evaluated, so it is also a prefix cache: a lane keeps the longest common token
 * prefix it already holds of its branch (through the suffix, not only the prefix) and evaluates only the rest.
 * Evaluated the same way, a kept prefix has the KV entries a fresh evaluation computes; a different split of the
 * same tokens into batches changes float order only (see the adapter README for the measured differences).
 */

/** Next-token distribution at one position, restricted to the requested tokens plus the full-vocabulary summary. */
export type PositionReading = {
  /** Raw logit of each requested token, in request order. */
  logits: number[];
  /** log of the full-vocabulary partition function: logit - logZ is a token's log-probability. */
  logZ: number;
  argmaxToken: Token;
  argmaxLogit: number;
};

/** Where to read: index into the suffix (the distribution of the token after it) and the tokens wanted there. */
export type ReadingSpec = { index: number; tokens: readonly Token[] };

export type Branch = {
  suffix: readonly Token[];
  readings: readonly ReadingSpec[];
  /**
   * Continuations scored after the whole suffix, on the same lane with the suffix kept (the inner nodes of a
   * multi-token label trie). Their `suffix` follows the parent's; they have no children of their own.
   */
  children?: readonly Branch[];
};

export type BranchScore = {
  readings: PositionReading[];
  children: PositionReading[][];
  /** Wall time of the forward passes this branch was evaluated in (shared with the lanes beside it). */
  seconds: number;
  /** Answered from the reading cache: no forward pass. */
  cached: boolean;
};

export type BranchScores = {
  prefixTokens: number;
  /** Tokens found already evaluated (cross-request prefix cache) and kept, in any lane. */
  reusedTokens: number;
  /** The request's own sequence held the whole prefix before this request (or every branch was a cache hit). */
  prefixReused: boolean;
  /** Tokens given to lanes by copying another sequence's state instead of evaluating them. */
  copiedTokens: number;
  /** Tokens put through forward passes. */
  evaluatedTokens: number;
  /** Sequences the branches were spread over (1: the serial path). */
  lanes: number;
  cacheHits: number;
  /** The prefix's own pass (0 when it was kept). */
  prefillSeconds: number;
  /** All branch passes, wall time. */
  branchSeconds: number;
  branches: BranchScore[];
};

export type ScoreOptions = {
  /** Keep what the sequences already hold (false: evaluate everything, e.g. to measure cold evaluation). */
  reusePrefix: boolean;
  cache?: ReadingCache<CachedBranch> | null;
};

export type CachedBranch = { readings: PositionReading[]; children: PositionReading[][] };

type Lane = { sequence: LlamaContextSequence };
type Work = { index: number; branch: Branch; tokens: Token[] };

const asLease = (target: LlamaContextSequence | SequenceLease): SequenceLease =>
  "sequence" in target
    ? target
    : {
        sequence: target,
        partition: null,
        borrow: async () => [],
        giveBack: () => undefined,
        inIdOrder: (sequences) => [...sequences],
      };

function held(sequence: LlamaContextSequence, tokens: readonly Token[]): number {
  return tokens.length === 0 ? 0 : sequence.compareContextTokens([...tokens]).firstDifferentIndex;
}

async function trimTo(sequence: LlamaContextSequence, length: number): Promise<void> {
  if (sequence.nextTokenIndex > length) {
    await sequence.eraseContextTokenRanges([{ start: length, end: sequence.nextTokenIndex }]);
  }
}

/** How much of `tokens` a lane may keep: everything before the first position whose logits are read. */
function keepLimit(prefixLength: number, branch: Branch): number {
  if (branch.suffix.length === 0) throw new Error("a branch needs at least one suffix token");
  return prefixLength + Math.min(...branch.readings.map((reading) => reading.index), branch.suffix.length - 1);
}

const cacheSpec = (branch: Branch) => ({
  readings: branch.readings,
  children: (branch.children ?? []).map((child) => ({ suffix: child.suffix, readings: child.readings })),
});

export async function scoreBranches(
  target: LlamaContextSequence | SequenceLease,
  prefix: readonly Token[],
  branches: readonly Branch[],
  options: ScoreOptions,
): Promise<BranchScores> {
  const lease = asLease(target);
  const cache = options.cache ?? null;
  const results = new Array<BranchScore>(branches.length);
  const keys = branches.map(
    (branch) => cache?.key([...prefix, ...branch.suffix], cacheSpec(branch), lease.partition) ?? null,
  );
  const work: Work[] = [];
  for (const [index, branch] of branches.entries()) {
    keepLimit(prefix.length, branch);
    const hit = keys[index] ? cache!.get(keys[index]!) : undefined;
    if (hit) results[index] = { ...hit, seconds: 0, cached: true };
    else work.push({ index, branch, tokens: [...prefix, ...branch.suffix] });
  }
  const stats = {
    prefixTokens: prefix.length,
    reusedTokens: 0,
    prefixReused: true,
    copiedTokens: 0,
    evaluatedTokens: 0,
    lanes: 0,
    cacheHits: branches.length - work.length,
    prefillSeconds: 0,
    branchSeconds: 0,
  };
  const primary = lease.sequence;
  if (work.length > 0 || branches.length === 0) {
    // The prefix's own pass, unless the sequence already holds it (or one branch's tokens beyond it).
    const kept = options.reusePrefix ? held(primary, prefix) : 0;
    stats.prefixReused = kept === prefix.length;
    stats.reusedTokens += kept;
    // A sequence holding one branch's tokens beyond the prefix keeps them for that branch (see runRounds).
    const throughBranch = options.reusePrefix && work.some((item) => held(primary, item.tokens) > prefix.length);
    if (!throughBranch) {
      await trimTo(primary, kept);
      if (kept < prefix.length) {
        const started = performance.now();
        await primary.evaluateWithoutGeneratingNewTokens(prefix.slice(kept), { contextShift: THROWING_CONTEXT_SHIFT });
        stats.prefillSeconds = (performance.now() - started) / 1000;
        stats.evaluatedTokens += prefix.length - kept;
        if (primary.needsCheckpoints) await primary.takeCheckpoint();
      }
    }
  }
  if (work.length > 0) {
    const started = performance.now();
    const lanes = await openLanes(lease, prefix, work.length, options.reusePrefix, stats);
    stats.lanes = lanes.length;
    try {
      await runRounds(lanes, prefix.length, work, options.reusePrefix, stats, results);
    } finally {
      lease.giveBack(lanes.filter((lane) => lane.sequence !== primary).map((lane) => lane.sequence));
    }
    stats.branchSeconds = (performance.now() - started) / 1000;
    for (const item of work) {
      const key = keys[item.index];
      const { readings, children } = results[item.index]!;
      if (key) cache!.set(key, { readings, children });
    }
  }
  return { ...stats, branches: results };
}

/**
 * The request's sequence plus up to `wanted - 1` idle sequences, each holding the prefix: kept from an earlier
 * request, else copied from the request's sequence. A lane whose copy fails is given back.
 */
async function openLanes(
  lease: SequenceLease,
  prefix: readonly Token[],
  wanted: number,
  reuse: boolean,
  stats: { copiedTokens: number; reusedTokens: number },
): Promise<Lane[]> {
  const borrowed = wanted > 1 ? await lease.borrow(wanted - 1, prefix) : [];
  const usable = await Promise.all(
    borrowed.map(async (sequence) => {
      if (reuse && held(sequence, prefix) === prefix.length) {
        stats.reusedTokens += prefix.length;
        return sequence;
      }
      if (await copySequencePrefix(sequence, lease.sequence, prefix.length)) {
        stats.copiedTokens += prefix.length;
        return sequence;
      }
      return null;
    }),
  );
  lease.giveBack(borrowed.filter((_, index) => usable[index] === null));
  const lanes = [lease.sequence, ...usable.filter((sequence) => sequence !== null)];
  return lease.inIdOrder(lanes).map((sequence) => ({ sequence }));
}

/**
 * Rounds of one branch per lane. Within a round every lane is trimmed first and then all lanes are submitted in
 * the same tick, so their tokens share batches (and a round's batch layout does not depend on timing); the
 * branches' continuations follow in the same lock-step.
 */
async function runRounds(
  lanes: Lane[],
  prefixLength: number,
  work: Work[],
  reuse: boolean,
  stats: { reusedTokens: number; evaluatedTokens: number },
  results: BranchScore[],
): Promise<void> {
  const pending = [...work];
  while (pending.length > 0) {
    const round = assignRound(lanes, pending, prefixLength);
    const started = performance.now();
    const starts = await Promise.all(
      round.map(async ({ lane, item }) => {
        const limit = keepLimit(prefixLength, item.branch);
        const keep = reuse ? Math.min(held(lane.sequence, item.tokens), limit) : Math.min(prefixLength, limit);
        await trimTo(lane.sequence, Math.max(keep, 0));
        const start = lane.sequence.nextTokenIndex;
        if (start < prefixLength) throw new Error("a lane lost the prefix before its branch");
        stats.reusedTokens += start - prefixLength;
        return start;
      }),
    );
    const readings = await Promise.all(
      round.map(({ lane, item }, slot) => {
        const start = starts[slot]!;
        stats.evaluatedTokens += item.tokens.length - start;
        return evaluate(
          lane.sequence,
          item.tokens.slice(start),
          offsetReadings(item.branch.readings, prefixLength - start),
        );
      }),
    );
    const children = round.map(() => [] as PositionReading[][]);
    const childCount = Math.max(...round.map(({ item }) => item.branch.children?.length ?? 0));
    if (childCount > 0) {
      await Promise.all(
        round.map(({ lane, item }) =>
          item.branch.children?.length && lane.sequence.needsCheckpoints ? lane.sequence.takeCheckpoint() : undefined,
        ),
      );
    }
    for (let child = 0; child < childCount; child++) {
      const active = round.flatMap(({ lane, item }, slot) => {
        const next = item.branch.children?.[child];
        return next ? [{ lane, next, slot, parent: item.tokens.length }] : [];
      });
      await Promise.all(active.map(({ lane, parent }) => trimTo(lane.sequence, parent)));
      const read = await Promise.all(
        active.map(({ lane, next }) => {
          keepLimit(0, next);
          stats.evaluatedTokens += next.suffix.length;
          return evaluate(lane.sequence, next.suffix, next.readings);
        }),
      );
      for (const [position, { slot }] of active.entries()) children[slot]!.push(read[position]!);
    }
    const seconds = (performance.now() - started) / 1000;
    for (const [slot, { item }] of round.entries()) {
      results[item.index] = { readings: readings[slot]!, children: children[slot]!, seconds, cached: false };
    }
  }
}

/**
 * One branch per lane, greedily by the longest common token prefix a lane holds of a branch beyond the shared
 * prefix (every lane holds that), so kept tokens are used where they are; the round stays in lane (sequence id)
 * order. The chosen branches leave `pending`.
 */
function assignRound(lanes: readonly Lane[], pending: Work[], prefixLength: number): Array<{ lane: Lane; item: Work }> {
  const pairs: Array<{ lane: Lane; item: Work; held: number; order: number }> = [];
  for (const lane of lanes) {
    const contents = lane.sequence.contextTokens;
    for (const [order, item] of pending.entries()) {
      let index = prefixLength;
      while (index < contents.length && index < item.tokens.length && contents[index] === item.tokens[index]) index++;
      pairs.push({ lane, item, held: index, order });
    }
  }
  pairs.sort((a, b) => b.held - a.held || a.order - b.order);
  const chosen = new Map<Lane, Work>();
  const taken = new Set<Work>();
  for (const { lane, item } of pairs) {
    if (chosen.has(lane) || taken.has(item)) continue;
    chosen.set(lane, item);
    taken.add(item);
  }
  const rest = pending.filter((item) => !taken.has(item));
  pending.splice(0, pending.length, ...rest);
  return lanes.flatMap((lane) => (chosen.has(lane) ? [{ lane, item: chosen.get(lane)! }] : []));
}

/** Readings indexed into the branch suffix, moved to index into what is evaluated (`shift` tokens of it kept before). */
const offsetReadings = (readings: readonly ReadingSpec[], shift: number): ReadingSpec[] =>
  readings.map((reading) => ({ index: reading.index + shift, tokens: reading.tokens }));

/** Evaluates `tokens` in one call, reading the next-token logits where asked. */
async function evaluate(
  sequence: LlamaContextSequence,
  tokens: readonly Token[],
  readings: readonly ReadingSpec[],
): Promise<PositionReading[]> {
  const wanted = new Map(readings.map((reading) => [reading.index, reading.tokens]));
  const input: ControlledEvaluateInputItem[] = tokens.map((token, index) => {
    const wantedTokens = wanted.get(index);
    if (wantedTokens === undefined) return token;
    // The full-vocabulary argmax is the greedy token (controlledEvaluate samples at temperature 0), read with its
    // logit by `includeSelected`. `includeTop: 1` would bring it too, but sorts the whole vocabulary first (about
    // 13 ms a reading at 152k tokens, README "The shared path's costs"); `includeMax` returns nothing in 3.22.1.
    return [
      token,
      {
        generateNext: {
          token: true,
          logits: { filter: { tokens: wantedTokens, includeSelected: true } },
          totalLogitWeight: true,
        },
      },
    ] as ControlledEvaluateInputItem;
  });
  const output = await sequence.controlledEvaluate(input, { contextShift: THROWING_CONTEXT_SHIFT });
  return readings.map((reading) => {
    const next = output[reading.index]?.next;
    const argmaxToken = next?.token;
    const argmaxLogit = argmaxToken == null ? undefined : next?.logits?.get(argmaxToken);
    if (!next?.logits || next.totalLogitWeight === undefined || argmaxToken == null || argmaxLogit === undefined) {
      throw new Error(`no logits were returned at position ${reading.index}`);
    }
    return {
      logits: reading.tokens.map((token) => {
        const logit = next.logits!.get(token);
        if (logit === undefined) throw new Error(`no logit was returned for token ${token}`);
        return logit;
      }),
      logZ: argmaxLogit + Math.log(next.totalLogitWeight),
      argmaxToken,
      argmaxLogit,
    };
  });
}

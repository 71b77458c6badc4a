import type { ControlledEvaluateInputItem, LlamaContextSequence, Token } from "node-llama-cpp";

/**
 * The scoring primitive every API builds on (decisions, /v1/systemone, debiasing): evaluate a prefix once, then
 * evaluate each branch's suffix after trimming the sequence back to the prefix, and read next-token logits at
 * chosen positions of the suffix. No token is ever generated.
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

export type Branch = {
  suffix: readonly Token[];
  /** Where to read: index into `suffix` (the distribution of the token after it) and the tokens wanted there. */
  readings: ReadonlyArray<{ index: number; tokens: readonly Token[] }>;
};

export type BranchScores = {
  prefixTokens: number;
  /** Prefix tokens found already evaluated in the sequence (cross-request reuse), not evaluated again. */
  reusedTokens: number;
  prefillSeconds: number;
  branches: Array<{ readings: PositionReading[]; seconds: number }>;
};

/** Context shift would silently drop the start of a prompt; budgets are checked before, so this never fires. */
export const THROWING_CONTEXT_SHIFT = {
  strategy: (): never => {
    throw new Error("context shift refused: the prompt does not fit the context");
  },
};

function sharedLength(a: readonly Token[], b: readonly Token[]): number {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index < limit && a[index] === b[index]) index++;
  return index;
}

async function trimTo(sequence: LlamaContextSequence, length: number): Promise<void> {
  if (sequence.nextTokenIndex > length) {
    await sequence.eraseContextTokenRanges([{ start: length, end: sequence.nextTokenIndex }]);
  }
}

/**
 * The sequence's evaluated tokens act as a one-slot prefix cache: what it already holds of `prefix` is kept
 * (`reusePrefix: true`), everything after is erased. Attention KV entries of a kept prefix are exactly those a
 * fresh evaluation computes, so results do not depend on reuse.
 *
 * The rest of the prefix is evaluated in one forward pass together with the first branch (each extra pass has a
 * fixed cost: graph build and thread hand-off), then the sequence is trimmed back to the prefix for every further
 * branch. `prefillSeconds` is that first pass, which is also branch 0's `seconds`.
 */
export async function scoreBranches(
  sequence: LlamaContextSequence,
  prefix: readonly Token[],
  branches: readonly Branch[],
  options: { reusePrefix: boolean },
): Promise<BranchScores> {
  const reused = options.reusePrefix ? sharedLength(sequence.contextTokens, prefix) : 0;
  await trimTo(sequence, reused);
  const remainder = prefix.slice(reused);
  const results: BranchScores["branches"] = [];
  let prefillSeconds = 0;
  if (branches.length === 0) {
    const started = performance.now();
    if (remainder.length > 0) {
      await sequence.evaluateWithoutGeneratingNewTokens(remainder, { contextShift: THROWING_CONTEXT_SHIFT });
    }
    prefillSeconds = (performance.now() - started) / 1000;
  }
  for (const [index, branch] of branches.entries()) {
    const started = performance.now();
    if (index > 0) await trimTo(sequence, prefix.length);
    const readings = await evaluateBranch(sequence, index === 0 ? remainder : [], branch);
    const seconds = (performance.now() - started) / 1000;
    if (index === 0) prefillSeconds = seconds;
    results.push({ readings, seconds });
  }
  return { prefixTokens: prefix.length, reusedTokens: reused, prefillSeconds, branches: results };
}

/** Evaluates `lead` (not yet evaluated prefix tokens) and the branch's suffix in one pass, reading where asked. */
async function evaluateBranch(
  sequence: LlamaContextSequence,
  lead: readonly Token[],
  branch: Branch,
): Promise<PositionReading[]> {
  if (branch.suffix.length === 0) throw new Error("a branch needs at least one suffix token");
  const wanted = new Map(branch.readings.map((reading) => [lead.length + reading.index, reading.tokens]));
  const input: ControlledEvaluateInputItem[] = [...lead, ...branch.suffix].map((token, index) => {
    const tokens = wanted.get(index);
    if (tokens === undefined) return token;
    // `includeTop: 1` brings the full-vocabulary argmax; `includeMax` returns nothing in node-llama-cpp 3.22.1.
    return [
      token,
      { generateNext: { logits: { filter: { tokens, includeTop: 1 } }, totalLogitWeight: true } },
    ] as ControlledEvaluateInputItem;
  });
  const output = await sequence.controlledEvaluate(input, { contextShift: THROWING_CONTEXT_SHIFT });
  return branch.readings.map((reading) => {
    const next = output[lead.length + reading.index]?.next;
    if (!next?.logits || next.totalLogitWeight === undefined) {
      throw new Error(`no logits were returned at suffix position ${reading.index}`);
    }
    const [argmaxToken, argmaxLogit] = next.logits.entries().next().value as [Token, number];
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

/**
 * Readings that give the log-probability of a multi-token continuation `suffix[continuationStart..]` (sum of
 * `logits[0] - logZ` over them). The continuation must start after the suffix's first token.
 */
export function continuationReadings(suffix: readonly Token[], continuationStart: number): Branch["readings"] {
  if (continuationStart < 1) throw new Error("a continuation starts after the branch's first token");
  return suffix
    .slice(continuationStart)
    .map((token, offset) => ({ index: continuationStart + offset - 1, tokens: [token] }));
}

import type { LlamaContextSequence, Token } from "node-llama-cpp";
import { softmax } from "../contract/softmax.ts";
import { type Branch, type BranchScore, type BranchScores, scoreBranches } from "./branch-scoring.ts";
import type { SequenceLease } from "./sequence-pool.ts";

/**
 * Label scoring that works for any number of options (DESIGN §4 "Beyond SemIf", up to 255).
 *
 * Options are labelled with codes of equal length: one letter (A-Z) for up to 26 options, two letters
 * (AA, AB, ... ) beyond. Equal length makes the label set prefix-free, also in token space (a code's tokens
 * can never be the start of another code's tokens), so the full-vocabulary probability of a code is the product
 * of its tokens' conditional probabilities and these products over all codes are probabilities of disjoint
 * events. Each code is scored by its summed log-probability, S_k = sum_i (logit - logZ) at each of its tokens;
 * the answer is softmax(S / temperature) over the codes. For single-token codes this equals the softmax over
 * the letters' logits of the decision API.
 *
 * The codes' token sequences form a trie. The root's distribution is read at the prompt's last token; every other
 * inner node is a continuation of the question's branch (`codeBranch`) that adds only its path tokens, evaluated
 * with the prompt kept. With 255 two-letter codes that is the prompt plus up to 10 continuations of one token.
 */

export const SINGLE_LETTER_LIMIT = 26;
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** The label text of each of `count` options, in presentation order. */
export function optionCodes(count: number): string[] {
  if (count <= SINGLE_LETTER_LIMIT) return [...LETTERS.slice(0, count)];
  if (count > LETTERS.length ** 2) throw new Error(`at most ${LETTERS.length ** 2} options can be labelled`);
  return Array.from(
    { length: count },
    (_, i) => `${LETTERS[Math.floor(i / LETTERS.length)]}${LETTERS[i % LETTERS.length]}`,
  );
}

export type CodeScores = {
  /** softmax(S / temperature) over the codes, in the order given. */
  probabilities: number[];
  /** S_k: summed log-probability of each code's tokens under the full vocabulary. */
  logProbabilities: number[];
  /** Share of the full-vocabulary probability that falls on the label set (sum of exp(S_k)). */
  labelMass: number;
  /** Most probable full-vocabulary token where the first label token comes. */
  firstArgmaxToken: Token;
};

type TrieNode = { path: Token[]; children: Map<Token, TrieNode>; codes: number[] };

function buildTrie(codes: readonly (readonly Token[])[]): TrieNode {
  const root: TrieNode = { path: [], children: new Map(), codes: [] };
  for (const [index, tokens] of codes.entries()) {
    if (tokens.length === 0) throw new Error(`option code ${index} has no tokens`);
    let node = root;
    for (const token of tokens) {
      let child = node.children.get(token);
      if (!child) {
        child = { path: [...node.path, token], children: new Map(), codes: [] };
        node.children.set(token, child);
      }
      node = child;
    }
    if (node.codes.length > 0 || node.children.size > 0) throw new Error("option codes are not prefix-free in tokens");
    node.codes.push(index);
  }
  return root;
}

function internalNodes(root: TrieNode): TrieNode[] {
  const nodes: TrieNode[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const node = pending.shift()!;
    if (node.children.size === 0) continue;
    if (node.codes.length > 0) throw new Error("option codes are not prefix-free in tokens");
    nodes.push(node);
    pending.push(...node.children.values());
  }
  return nodes;
}

/** A question's codes as one branch: its prompt suffix read at the end (the trie's root), then the inner nodes. */
export type CodeBranch = { branch: Branch; read(score: BranchScore, temperature: number): CodeScores };

/**
 * The branch that scores `codes` after a prompt whose part after the shared prefix is `suffix`: the root's
 * distribution is read at the suffix's last token, and every other inner node of the codes' trie is a
 * continuation of its path tokens, read at its end.
 */
export function codeBranch(suffix: readonly Token[], codes: readonly (readonly Token[])[]): CodeBranch {
  const nodes = internalNodes(buildTrie(codes));
  const [root, ...inner] = nodes;
  const branch: Branch = {
    suffix,
    readings: [{ index: suffix.length - 1, tokens: [...root!.children.keys()] }],
    children: inner.map((node) => ({
      suffix: node.path,
      readings: [{ index: node.path.length - 1, tokens: [...node.children.keys()] }],
    })),
  };
  const read = (score: BranchScore, temperature: number): CodeScores => {
    const logProbabilities = new Array<number>(codes.length).fill(0);
    const addToSubtree = (node: TrieNode, logProbability: number) => {
      const pending = [node];
      while (pending.length > 0) {
        const current = pending.pop()!;
        for (const code of current.codes) logProbabilities[code]! += logProbability;
        pending.push(...current.children.values());
      }
    };
    const readings = [score.readings[0]!, ...score.children.map((child) => child[0]!)];
    for (const [index, node] of nodes.entries()) {
      const reading = readings[index]!;
      [...node.children.values()].forEach((child, childIndex) => {
        addToSubtree(child, reading.logits[childIndex]! - reading.logZ);
      });
    }
    return {
      probabilities: softmax(logProbabilities, temperature),
      logProbabilities,
      labelMass: logProbabilities.reduce((sum, s) => sum + Math.exp(s), 0),
      firstArgmaxToken: readings[0]!.argmaxToken,
    };
  };
  return { branch, read };
}

/**
 * Scores `codes` (token sequences that follow `prompt`) on its own: the prompt but its last token is the prefix,
 * the last token and the codes' trie the branch.
 */
export async function scoreCodes(
  target: LlamaContextSequence | SequenceLease,
  prompt: readonly Token[],
  codes: readonly (readonly Token[])[],
  options: { temperature: number; reusePrefix: boolean },
): Promise<CodeScores & { scores: BranchScores }> {
  if (prompt.length < 1) throw new Error("the prompt is empty");
  const { branch, read } = codeBranch(prompt.slice(-1), codes);
  const scores = await scoreBranches(target, prompt.slice(0, -1), [branch], { reusePrefix: options.reusePrefix });
  return { ...read(scores.branches[0]!, options.temperature), scores };
}

import { type LlamaContextSequence, type LlamaModel, LlamaText, type Token } from "node-llama-cpp";
import { softmax } from "../contract/softmax.ts";
import { type Branch, scoreBranches } from "./branch-scoring.ts";

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
 * The codes' token sequences form a trie; each internal node is one branch of `scoreBranches` over the
 * question's prompt, so the prompt is evaluated once (in a pass of its own) and each branch adds only the last
 * prompt token and the code tokens above it.
 * With 255 two-letter codes that is 1 + (up to 10) branches of one or two tokens.
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
  prefixTokens: number;
  reusedTokens: number;
  prefillSeconds: number;
  branchSeconds: number;
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

/**
 * Scores `codes` (token sequences that follow `prompt`) on `sequence`. `reusePrefix` lets the sequence keep
 * whatever start of the prompt it already holds (shared state within a request, and across requests).
 */
export async function scoreCodes(
  sequence: LlamaContextSequence,
  prompt: readonly Token[],
  codes: readonly (readonly Token[])[],
  options: { temperature: number; reusePrefix: boolean },
): Promise<CodeScores> {
  if (prompt.length < 1) throw new Error("the prompt is empty");
  const root = buildTrie(codes);
  const nodes = internalNodes(root);
  const lastPromptToken = prompt.at(-1)!;
  const branches: Branch[] = nodes.map((node) => ({
    suffix: [lastPromptToken, ...node.path],
    readings: [{ index: node.path.length, tokens: [...node.children.keys()] }],
  }));
  // The prompt gets a pass of its own before the label branches, so the branches are evaluated the same way
  // whether the prompt was just evaluated or kept from an earlier request: warm scores equal cold ones exactly.
  const head = prompt.slice(0, -1);
  const evaluated = await scoreBranches(sequence, head, [], { reusePrefix: options.reusePrefix });
  const scored = await scoreBranches(sequence, head, branches, { reusePrefix: true });

  const logProbabilities = new Array<number>(codes.length).fill(0);
  const addToSubtree = (node: TrieNode, logProbability: number) => {
    const pending = [node];
    while (pending.length > 0) {
      const current = pending.pop()!;
      for (const code of current.codes) logProbabilities[code]! += logProbability;
      pending.push(...current.children.values());
    }
  };
  for (const [index, node] of nodes.entries()) {
    const reading = scored.branches[index]!.readings[0]!;
    [...node.children.values()].forEach((child, childIndex) => {
      addToSubtree(child, reading.logits[childIndex]! - reading.logZ);
    });
  }
  return {
    probabilities: softmax(logProbabilities, options.temperature),
    logProbabilities,
    labelMass: logProbabilities.reduce((sum, s) => sum + Math.exp(s), 0),
    // nodes[0] is the root: its branch reads the distribution right after the prompt.
    firstArgmaxToken: scored.branches[0]!.readings[0]!.argmaxToken,
    prefixTokens: evaluated.prefixTokens + 1,
    reusedTokens: evaluated.reusedTokens,
    prefillSeconds: evaluated.prefillSeconds,
    branchSeconds: scored.branches.reduce((sum, b) => sum + b.seconds, 0),
  };
}

/**
 * Tokens of each of `count` option codes as they follow `text` (whose tokens are `textTokens`): the text is
 * tokenized with and without the code, and the code is what the longer tokenization adds. Text that changes
 * when a code follows it is refused, since the model would then be scored on tokens it never reads.
 */
export function codeTokensAfter(
  model: LlamaModel,
  text: LlamaText,
  textTokens: readonly Token[],
  letterPrefix: string,
  count: number,
): Token[][] {
  const codes = optionCodes(count).map((code) => {
    const extended = LlamaText([text, letterPrefix + code]).tokenize(model.tokenizer, "trimLeadingSpace");
    if (!textTokens.every((token, index) => extended[index] === token) || extended.length <= textTokens.length) {
      throw new Error(`option label ${code} does not follow the prompt as tokens of its own`);
    }
    return extended.slice(textTokens.length);
  });
  if (new Set(codes.map((c) => c.join(","))).size !== codes.length) {
    throw new Error("option labels do not map to distinct tokens");
  }
  return codes;
}

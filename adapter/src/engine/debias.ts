/**
 * Option-order debiasing: a model's preference for a position (often the first option) is averaged out by
 * scoring the options in several cyclic orders and averaging each option's probability over the orders.
 * With n orders of K options the rotations are spread evenly (offsets floor(r*K/n)); n = K puts every option
 * at every position once, which cancels any purely positional preference exactly.
 */

/** Rotation offsets for `n` orders of `count` options (distinct; at most `count` of them). */
export function rotationOffsets(count: number, n: number): number[] {
  const orders = Math.max(1, Math.min(n, count));
  return Array.from({ length: orders }, (_, r) => Math.floor((r * count) / orders));
}

/** The items in the order that starts at `offset` and wraps around. */
export function rotate<T>(items: readonly T[], offset: number): T[] {
  return items.map((_, i) => items[(i + offset) % items.length]!);
}

export type DebiasedProbabilities = {
  /** Mean probability of each option (in the original order) over the orders; sums to 1. */
  probabilities: number[];
  /** Max - min of each option's probability across the orders (0 with a single order). */
  spread: number[];
};

/**
 * `perOrder[r][i]` is the probability of the option shown at position i in order r; `offsets[r]` is that order's
 * rotation, so position i shows original option (i + offset) mod K.
 */
export function averageOrders(
  perOrder: readonly (readonly number[])[],
  offsets: readonly number[],
): DebiasedProbabilities {
  const count = perOrder[0]?.length ?? 0;
  const byOption = Array.from({ length: count }, () => [] as number[]);
  perOrder.forEach((probabilities, r) => {
    probabilities.forEach((p, position) => {
      byOption[(position + offsets[r]!) % count]!.push(p);
    });
  });
  return {
    probabilities: byOption.map((ps) => ps.reduce((a, b) => a + b, 0) / ps.length),
    spread: byOption.map((ps) => Math.max(...ps) - Math.min(...ps)),
  };
}

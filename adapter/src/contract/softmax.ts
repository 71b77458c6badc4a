/**
 * Softmax of logits / temperature, computed in float64 with the max subtracted: how a decision result's
 * `probabilities` follow from its `option_logits` (DESIGN §4). The adapter scores with it and the console refits
 * the temperature with it, so both read one definition.
 */
export function softmax(logits: readonly number[], temperature = 1): number[] {
  const scaled = logits.map((logit) => logit / temperature);
  const max = Math.max(...scaled);
  const weights = scaled.map((value) => Math.exp(value - max));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return weights.map((weight) => weight / total);
}

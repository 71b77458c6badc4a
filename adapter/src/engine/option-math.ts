/** Softmax of logits / temperature, computed in float64 with the max subtracted. */
export function softmax(logits: readonly number[], temperature = 1): number[] {
  const scaled = logits.map((logit) => logit / temperature);
  const max = Math.max(...scaled);
  const weights = scaled.map((value) => Math.exp(value - max));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return weights.map((weight) => weight / total);
}

/** Share of the full-vocabulary probability mass (temperature 1) that falls on the given logits. */
export function allowedTokenMass(logits: readonly number[], logZ: number): number {
  return logits.reduce((sum, logit) => sum + Math.exp(logit - logZ), 0);
}

/** Share of the full-vocabulary probability mass (temperature 1) that falls on the given logits. */
export function allowedTokenMass(logits: readonly number[], logZ: number): number {
  return logits.reduce((sum, logit) => sum + Math.exp(logit - logZ), 0);
}

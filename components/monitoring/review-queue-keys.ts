/**
 * The review queue's keyboard: `1`–`9` give option 1 to 9 as the right answer, `s` skips; with a modifier, or while
 * typing in a field, a key is not the queue's.
 */
export type KeyChoice = { label: string } | { skip: true } | null;

export function reviewKeyChoice(
  event: { key: string; altKey: boolean; ctrlKey: boolean; metaKey: boolean; inField: boolean },
  optionIds: readonly string[],
): KeyChoice {
  if (event.altKey || event.ctrlKey || event.metaKey || event.inField) return null;
  if (/^[1-9]$/.test(event.key)) {
    const option = optionIds[Number(event.key) - 1];
    return option === undefined ? null : { label: option };
  }
  return event.key === "s" || event.key === "S" ? { skip: true } : null;
}

/**
 * Which of a panel's actions (each a mutation, with TanStack Query's `submittedAt`, 0 before its first use) was
 * started last: only its outcome is shown, so an upload's "file is empty" goes once a sample was added after it.
 */
export function latestAction<Action extends string>(
  actions: Readonly<Record<Action, { submittedAt: number }>>,
): Action | null {
  let latest: Action | null = null;
  let at = 0;
  for (const [action, { submittedAt }] of Object.entries(actions) as [Action, { submittedAt: number }][]) {
    if (submittedAt > at) {
      latest = action;
      at = submittedAt;
    }
  }
  return latest;
}

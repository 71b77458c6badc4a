/** Context shift would silently drop the start of a prompt; budgets are checked before, so this never fires. */
export const THROWING_CONTEXT_SHIFT = {
  strategy: (): never => {
    throw new Error("context shift refused: the prompt does not fit the context");
  },
};

import type { DecisionKindSummary } from "../../contract/endpoints/monitoring.ts";

/**
 * One page of decision kinds (in the order given: most decisions first) whose question contains `search`, ignoring
 * case: an endpoint asked thousands of distinct questions must not make a page draw every one of them.
 */
export function pageOfKinds<Kind extends Pick<DecisionKindSummary, "question">>(
  kinds: readonly Kind[],
  query: { search?: string; page: number },
  perPage: number,
) {
  const needle = query.search?.toLowerCase() ?? "";
  const matching = needle ? kinds.filter((kind) => kind.question.toLowerCase().includes(needle)) : kinds;
  const start = (query.page - 1) * perPage;
  return {
    kinds: matching.slice(start, start + perPage),
    kindPage: {
      page: query.page,
      perPage,
      matching: matching.length,
      total: kinds.length,
      search: needle ? (query.search ?? null) : null,
    },
  };
}

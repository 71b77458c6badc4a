/**
 * Every query key the console's pages use. A key's prefix is what a change invalidates: `endpoints.all` refetches
 * the list and every endpoint's queries, `endpoints.one(name)` that endpoint's detail, metrics, logs and requests.
 */
export const queryKeys = {
  settings: ["settings"] as const,
  auth: {
    all: ["auth"] as const,
    me: ["auth", "me"] as const,
  },
  audit: (before: number | undefined) => ["audit", before ?? "newest"] as const,
  endpoints: {
    all: ["endpoints"] as const,
    one: (name: string) => ["endpoints", name] as const,
    metrics: (name: string, minutes: number, periodSeconds: number) =>
      ["endpoints", name, "metrics", minutes, periodSeconds] as const,
    invocations: (name: string) => ["endpoints", name, "invocations"] as const,
    logs: (name: string, minutes: number, filterPattern: string) =>
      ["endpoints", name, "logs", minutes, filterPattern] as const,
    asyncRequests: (name: string) => ["endpoints", name, "async-requests"] as const,
    alarms: (name: string) => ["endpoints", name, "alarms"] as const,
    monitoring: (
      name: string,
      window: string,
      threshold: number | null,
      variant: string | null,
      kinds: { search: string; page: number },
    ) => ["endpoints", name, "monitoring", window, threshold, variant, kinds.search, kinds.page] as const,
    review: (name: string, order: string, kind: string | null) => ["endpoints", name, "review", order, kind] as const,
  },
  images: ["images"] as const,
  modelPresets: ["model-presets"] as const,
  builds: {
    all: ["builds"] as const,
    one: (id: string) => ["builds", id] as const,
    /** A new key when the build finishes fetches the tail once more, so the last lines are not lost. */
    logs: (id: string, running: boolean) => ["builds", id, "logs", running] as const,
  },
  datasets: { all: ["datasets"] as const },
  gatewayKeys: ["gateway-keys"] as const,
  evaluations: {
    all: ["evaluations"] as const,
    one: (id: string, compareWith: string | null) => ["evaluations", id, compareWith] as const,
  },
  batch: {
    all: ["batch"] as const,
    one: (name: string) => ["batch", name] as const,
  },
  models: {
    all: ["models"] as const,
    group: (group: string) => ["models", group] as const,
    version: (group: string, version: number) => ["models", group, version] as const,
  },
};

import "server-only";
import { type ManagedScope, managedScope } from "./auth/managed-names.ts";
import { type AwsClients, createAwsClients } from "./aws/clients.ts";
import { type ConsoleConfig, consoleConfig } from "./config.ts";
import { type ConsoleSettings, consoleSettings } from "./console-settings.ts";
import { EndpointSummaryCache } from "./endpoints/summary-cache.ts";
import { type EndpointChecker, servingEndpointChecker } from "./evaluate/endpoint-configuration.ts";
import type { EndpointInvoker } from "./evaluate/runs/invoker.ts";
import type { RunnerDeps } from "./evaluate/runs/runner.ts";
import { sageMakerInvoker } from "./evaluate/runs/sagemaker-invoker.ts";
import { consoleStore } from "./store/console-database.ts";
import type { Store } from "./store/store.ts";

export interface ConsoleContext {
  config: ConsoleConfig;
  aws: AwsClients;
  /** The console's store (Kysely, over SQLite or PostgreSQL): what store modules take. */
  store: Store;
  settings: ConsoleSettings;
  /** The resources this console may act on (its IAM policy's names). */
  scope: ManagedScope;
  endpointSummaries: EndpointSummaryCache;
  /** The evaluation runner's InvokeEndpoint and DescribeEndpoint, on the same clients. */
  evaluation: { invoke: EndpointInvoker; checkEndpoint: EndpointChecker };
}

function build(config: ConsoleConfig): Omit<ConsoleContext, "store"> {
  const aws = createAwsClients({}, config);
  const settings = consoleSettings(config);
  return {
    config,
    aws,
    settings,
    scope: managedScope(config),
    endpointSummaries: new EndpointSummaryCache(consoleStore()),
    evaluation: {
      invoke: sageMakerInvoker(aws, { artifactBucket: settings.artifactBucket, store: () => consoleStore() }),
      checkEndpoint: servingEndpointChecker(aws),
    },
  };
}

/**
 * The console's one composition root: what route handlers and start-up work with, built from the process's
 * settings (`config.ts`) on first use, and again only if they change, and kept on `globalThis` (Next.js may load
 * route modules more than once per process). Nothing here talks to AWS until a handler sends a command.
 */
export function consoleContext(): ConsoleContext {
  const config = consoleConfig();
  const store = globalThis as { __consoleContext?: Omit<ConsoleContext, "store"> };
  if (store.__consoleContext?.config !== config) store.__consoleContext = build(config);
  return { ...store.__consoleContext, store: consoleStore() };
}

/** What the evaluation routes and the start-up resume work with: the console's store and the runner's calls. */
export function evaluationDeps(): RunnerDeps & { checkEndpoint: EndpointChecker } {
  const { store, evaluation, aws, settings, config } = consoleContext();
  return { store, ...evaluation, batch: { aws, settings }, lease: { ttlMs: config.CONSOLE_LEASE_SECONDS * 1000 } };
}

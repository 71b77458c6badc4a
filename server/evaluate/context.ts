import { consoleDatabase } from "../auth/console-database.ts";
import { createAwsClients } from "../aws/clients.ts";
import { type ConfigurationReader, endpointConfigurationReader } from "./endpoint-configuration.ts";
import type { EndpointInvoker } from "./runs/invoker.ts";
import type { RunnerDeps } from "./runs/runner.ts";
import { sageMakerInvoker } from "./runs/sagemaker-invoker.ts";

interface EvaluationClients {
  invoke: EndpointInvoker;
  readConfiguration: ConfigurationReader;
}

function evaluationClients(): EvaluationClients {
  const store = globalThis as { __evaluationClients?: EvaluationClients };
  if (!store.__evaluationClients) {
    const aws = createAwsClients();
    store.__evaluationClients = {
      invoke: sageMakerInvoker(aws.runtime),
      readConfiguration: endpointConfigurationReader(aws),
    };
  }
  return store.__evaluationClients;
}

/**
 * What the evaluation routes and the start-up resume work with: the console database, InvokeEndpoint and
 * DescribeEndpoint (for the configuration column of comparisons).
 */
export function evaluationDeps(): RunnerDeps & { readConfiguration: ConfigurationReader } {
  const clients = evaluationClients();
  return { db: consoleDatabase(), invoke: clients.invoke, readConfiguration: clients.readConfiguration };
}

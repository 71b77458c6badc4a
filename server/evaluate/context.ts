import { consoleDatabase } from "../auth/console-database.ts";
import { createAwsClients } from "../aws/clients.ts";
import { type EndpointChecker, servingEndpointChecker } from "./endpoint-configuration.ts";
import type { EndpointInvoker } from "./runs/invoker.ts";
import type { RunnerDeps } from "./runs/runner.ts";
import { sageMakerInvoker } from "./runs/sagemaker-invoker.ts";

interface EvaluationClients {
  invoke: EndpointInvoker;
  checkEndpoint: EndpointChecker;
}

function evaluationClients(): EvaluationClients {
  const store = globalThis as { __evaluationClients?: EvaluationClients };
  if (!store.__evaluationClients) {
    const aws = createAwsClients();
    store.__evaluationClients = {
      invoke: sageMakerInvoker(aws.runtime),
      checkEndpoint: servingEndpointChecker(aws),
    };
  }
  return store.__evaluationClients;
}

/**
 * What the evaluation routes and the start-up resume work with: the console database, InvokeEndpoint and
 * DescribeEndpoint (for the configuration column of comparisons).
 */
export function evaluationDeps(): RunnerDeps & { checkEndpoint: EndpointChecker } {
  const clients = evaluationClients();
  return { db: consoleDatabase(), invoke: clients.invoke, checkEndpoint: clients.checkEndpoint };
}

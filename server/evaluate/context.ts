import { consoleDatabase } from "../auth/console-database.ts";
import { createAwsClients } from "../aws/clients.ts";
import type { EndpointInvoker } from "./runs/invoker.ts";
import type { RunnerDeps } from "./runs/runner.ts";
import { sageMakerInvoker } from "./runs/sagemaker-invoker.ts";

function consoleInvoker(): EndpointInvoker {
  const store = globalThis as { __evaluationInvoker?: EndpointInvoker };
  store.__evaluationInvoker ??= sageMakerInvoker(createAwsClients().runtime);
  return store.__evaluationInvoker;
}

/** What the evaluation routes and the start-up resume work with: the console database and InvokeEndpoint. */
export function evaluationDeps(): RunnerDeps {
  return { db: consoleDatabase(), invoke: consoleInvoker() };
}

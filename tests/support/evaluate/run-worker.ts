import { createAwsClients } from "../../../server/aws/clients.ts";
import { type EndpointInvoker, httpInvoker } from "../../../server/evaluate/runs/invoker.ts";
import { executeRun } from "../../../server/evaluate/runs/runner.ts";
import { sageMakerInvoker } from "../../../server/evaluate/runs/sagemaker-invoker.ts";
import { openDatabase } from "../../../server/store/database.ts";

/**
 * Works one evaluation run in its own process, as a console would: `run-worker.ts <database> <runId> <target>`.
 * `<target>` is a base URL every endpoint name resolves to, or `aws`: the console's own invoker on the clients the
 * environment configures (a local control plane's, with CONSOLE_ARTIFACT_BUCKET). Tests kill it mid-run to check
 * resumption.
 */
const [file, runId, target] = process.argv.slice(2);
if (!file || !runId || !target) {
  console.error("usage: run-worker.ts <database> <runId> <baseUrl | aws>");
  process.exit(2);
}
const db = openDatabase(file);
const invoke: EndpointInvoker =
  target === "aws"
    ? sageMakerInvoker(createAwsClients(), {
        artifactBucket: process.env.CONSOLE_ARTIFACT_BUCKET ?? null,
        db: () => db,
        pollMs: 50,
      })
    : httpInvoker(() => target);
const status = await executeRun({ db, invoke }, runId);
db.close();
console.log(JSON.stringify({ runId, status }));

import { createAwsClients } from "../../../server/aws/clients.ts";
import { type EndpointInvoker, httpInvoker } from "../../../server/evaluate/runs/invoker.ts";
import { runLeaseName } from "../../../server/evaluate/runs/run-store.ts";
import { executeRun } from "../../../server/evaluate/runs/runner.ts";
import { sageMakerInvoker } from "../../../server/evaluate/runs/sagemaker-invoker.ts";
import { openDatabase } from "../../../server/store/database.ts";
import { leaseHolder } from "../../../server/store/leases.ts";
import { postgresStore } from "../../../server/store/postgres-store.ts";
import { sqliteStore } from "../../../server/store/sqlite-store.ts";

/**
 * Works one evaluation run in its own process, as a console would: `run-worker.ts <database> <runId> <target>`.
 * `<database>` is a SQLite file or a PostgreSQL URL (a TestStore's location). `<target>` is a base URL every
 * endpoint name resolves to, or `aws`: the console's own invoker on the clients the environment configures (a local
 * control plane's, with CONSOLE_ARTIFACT_BUCKET). Tests kill it mid-run to check resumption.
 */
const [database, runId, target] = process.argv.slice(2);
if (!database || !runId || !target) {
  console.error("usage: run-worker.ts <database file | postgres URL> <runId> <baseUrl | aws>");
  process.exit(2);
}
const store = /^postgres(ql)?:\/\//.test(database)
  ? postgresStore(database, { maxConnections: 4 })
  : sqliteStore(openDatabase(database));
const invoke: EndpointInvoker =
  target === "aws"
    ? sageMakerInvoker(createAwsClients(), {
        artifactBucket: process.env.CONSOLE_ARTIFACT_BUCKET ?? null,
        store: () => store,
        pollMs: 50,
      })
    : httpInvoker(() => target);
// A worker started after one was killed waits, as another console replica would, for the dead one's lease to expire.
const lease = { ttlMs: Number(process.env.RUN_WORKER_LEASE_MS ?? 30_000) };
while (await leaseHolder(store, runLeaseName(runId))) await new Promise((resolve) => setTimeout(resolve, 100));
const status = await executeRun({ store, invoke, lease }, runId);
await store.destroy();
console.log(JSON.stringify({ runId, status }));

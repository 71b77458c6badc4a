import { httpInvoker } from "../../../server/evaluate/runs/invoker.ts";
import { executeRun } from "../../../server/evaluate/runs/runner.ts";
import { openDatabase } from "../../../server/store/database.ts";

/**
 * Works one evaluation run in its own process, as a console would: `run-worker.ts <database> <runId> <baseUrl>`,
 * every endpoint name resolving to `<baseUrl>`. Tests kill it mid-run to check resumption.
 */
const [file, runId, baseUrl] = process.argv.slice(2);
if (!file || !runId || !baseUrl) {
  console.error("usage: run-worker.ts <database> <runId> <baseUrl>");
  process.exit(2);
}
const db = openDatabase(file);
const status = await executeRun({ db, invoke: httpInvoker(() => baseUrl) }, runId);
db.close();
console.log(JSON.stringify({ runId, status }));

import type { ChildProcess } from "node:child_process";

/** What a run-worker.ts process printed when it ended: `{runId, status}`. */
export async function workerOutcome(child: ChildProcess): Promise<unknown> {
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  await new Promise((resolve) => child.on("exit", resolve));
  return JSON.parse(output);
}

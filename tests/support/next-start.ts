import { type ChildProcess, type StdioOptions, spawn } from "node:child_process";
import path from "node:path";
import { exitWithParentArgs } from "@decision-console/local-aws";

const repoRoot = path.resolve(import.meta.dirname, "../..");

/**
 * `next start` on 127.0.0.1:`port` over the console's build, as npm start runs it: the server leaves SIGTERM and
 * SIGINT to the console (NEXT_MANUAL_SIG_HANDLE), which drains and releases its leases, and exits with its parent.
 */
export function spawnNextStart(port: number, env: NodeJS.ProcessEnv, stdio: StdioOptions): ChildProcess {
  return spawn(
    process.execPath,
    [
      ...exitWithParentArgs(),
      path.join(repoRoot, "node_modules", "next", "dist", "bin", "next"),
      "start",
      "-H",
      "127.0.0.1",
      "-p",
      String(port),
    ],
    { cwd: repoRoot, env: { ...env, NEXT_MANUAL_SIG_HANDLE: "true" }, stdio },
  );
}

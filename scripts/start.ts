/**
 * `npm start`: the console on PORT (default 3000). With no AWS configuration in the environment it first starts
 * the local AWS control plane (LOCAL_AWS_PORT, default 4599) and points the console at it; with a region or
 * credentials (or CONSOLE_MODE=aws) the console talks to real AWS. Builds `.next` when missing or older than
 * the sources, then runs `next start`, forwarding SIGINT/SIGTERM and stopping everything it started. Its children
 * (next-server, adapters, builds) exit by themselves when it dies, even by SIGKILL.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import {
  consoleEnvironment,
  exitWithParent,
  exitWithParentArgs,
  type LocalStack,
  startLocalStack,
} from "@decision-console/local-aws";
import { normalisedResourcePrefix } from "../contract/stack/console-contract.ts";
import { workspaceStackFixture } from "../infra/local-stack/workspace-fixture.ts";
import { prepareToListen } from "../server/before-listening.ts";
import { readConsoleConfig } from "../server/config.ts";
import { writeFirstRunLimits } from "../server/first-run/first-run-limits.ts";
import { prepareFirstRun, seedingFailed } from "./local-seed/first-run-limits.ts";
import { type SeedModel, seedModels } from "./local-seed/seed-models.ts";

const REPO_ROOT = path.resolve(import.meta.dirname, "..");

/** Variables that mean "use real AWS": a region, a profile, or credentials of any kind the default chain reads. */
const AWS_CONFIGURATION = [
  "AWS_REGION",
  "AWS_DEFAULT_REGION",
  "AWS_PROFILE",
  "AWS_ACCESS_KEY_ID",
  "AWS_WEB_IDENTITY_TOKEN_FILE",
  "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
  "AWS_CONTAINER_CREDENTIALS_FULL_URI",
];

export function consoleMode(env: Record<string, string | undefined>): "local" | "aws" {
  if (env.CONSOLE_MODE === "local" || env.CONSOLE_MODE === "aws") return env.CONSOLE_MODE;
  if (env.CONSOLE_MODE) throw new Error(`CONSOLE_MODE must be "local" or "aws", not "${env.CONSOLE_MODE}".`);
  return AWS_CONFIGURATION.some((name) => env[name]) ? "aws" : "local";
}

/** What `next build` reads; a change in any of them makes the existing build stale. */
const BUILD_INPUTS = [
  "app",
  "components",
  "server",
  "public",
  "adapter/src/contract",
  "proxy.ts",
  "next.config.ts",
  "postcss.config.mjs",
  "tsconfig.json",
  "package.json",
];

function newestMtime(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return entry.includes(".test.") ? 0 : stat.mtimeMs;
  return fs
    .readdirSync(entry)
    .reduce((newest, name) => Math.max(newest, newestMtime(path.join(entry, name))), stat.mtimeMs);
}

/** `distDir` follows next.config.ts (NEXT_DIST_DIR, else `.next`). */
export function buildIsStale(repoRoot: string, distDir = ".next"): boolean {
  const buildId = path.join(repoRoot, distDir, "BUILD_ID");
  if (!fs.existsSync(buildId)) return true;
  const built = fs.statSync(buildId).mtimeMs;
  return BUILD_INPUTS.some((input) => newestMtime(path.join(repoRoot, input)) > built);
}

/** Runs `next <args>`; it stops by itself if this process dies, even by SIGKILL (`exit-with-parent.mjs`). */
function run(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const next = path.join(REPO_ROOT, "node_modules", "next", "dist", "bin", "next");
  return spawn(process.execPath, [...exitWithParentArgs(), next, ...args], { cwd: REPO_ROOT, env, stdio: "inherit" });
}

/** Waits (bounded) until nothing listens on `host:port`: a console of a killed start may take a moment to stop. */
async function waitForFreePort(host: string, port: number, timeoutMs = 15_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, host, () => probe.close(() => resolve(true)));
    });
    if (free || Date.now() > deadline) return free;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function exitCode(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

async function main() {
  // npm start runs this as npm's own child: if npm is killed, even by SIGKILL, stop everything started here.
  exitWithParent(process.ppid);
  // Every setting is checked before anything starts: a bad value stops here, named (server/config.ts).
  const config = readConsoleConfig(process.env);
  const mode = consoleMode(process.env);
  const port = String(config.PORT);
  const host = config.HOST;
  // Before anything is written: the console, the control plane and every child they start create private files.
  const dataDir = await prepareToListen(config);

  let stack: LocalStack | undefined;
  let seeded: Promise<SeedModel[]> = Promise.resolve([]);
  // The console stops itself on SIGTERM (server/lifecycle/shutdown.ts): requests in flight finish, leases are released.
  let env: NodeJS.ProcessEnv = {
    ...process.env,
    CONSOLE_MODE: mode,
    CONSOLE_DATA_DIR: dataDir,
    NEXT_MANUAL_SIG_HANDLE: "true",
  };
  if (mode === "local") {
    const limits = prepareFirstRun();
    if (limits.length > 0) {
      console.warn("This first run is limited (the console's first page says so too):");
      for (const limit of limits) console.warn(`  - ${limit}`);
    }
    writeFirstRunLimits(dataDir, limits);
    stack = await startLocalStack({
      dataDir,
      fixture: workspaceStackFixture(REPO_ROOT),
      resourcePrefix: normalisedResourcePrefix(config.CONSOLE_RESOURCE_PREFIX) ?? undefined,
    });
    env = consoleEnvironment(env, stack);
    console.log(
      `Local AWS control plane on ${stack.controlPlane.url} (data in ${dataDir}; credentials in ${stack.controlPlane.credentials.file}, profiles console and admin)`,
    );
    // Packaging the first-run models takes a moment; the console starts meanwhile, and stopping waits for it.
    seeded = seedModels(stack.controlPlane);
    seeded.then(
      (models) => console.log(`Models ready to deploy: ${models.map((m) => m.modelDataUrl).join(", ")}`),
      (error) => {
        console.error(seedingFailed(error));
        writeFirstRunLimits(dataDir, [...limits, seedingFailed(error)]);
      },
    );
  } else {
    console.log(
      `AWS mode: region ${env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? "(from the profile)"}, default credential chain`,
    );
  }

  let current: ChildProcess | undefined;
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    current?.kill(signal);
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));

  let code = 0;
  const distDir = config.NEXT_DIST_DIR;
  if (buildIsStale(REPO_ROOT, distDir)) {
    console.log(
      fs.existsSync(path.join(REPO_ROOT, distDir, "BUILD_ID"))
        ? "Rebuilding the console (next build, about a minute): the sources changed since the last build."
        : "Building the console (first run only: next build, about a minute); later starts reuse the build.",
    );
    // next build may add its generated types folder to tsconfig.json; the repository's tsconfig already covers it.
    const tsconfig = path.join(REPO_ROOT, "tsconfig.json");
    const original = fs.readFileSync(tsconfig, "utf8");
    current = run(["build"], env);
    code = await exitCode(current);
    if (fs.readFileSync(tsconfig, "utf8") !== original) fs.writeFileSync(tsconfig, original);
  }
  if (code === 0 && !stopping && Number(port) > 0 && !(await waitForFreePort(host, Number(port)))) {
    console.error(`Port ${port} on ${host} is in use (another console?); set PORT to a free port.`);
    code = 1;
  }
  if (code === 0 && !stopping) {
    console.log(`Decision Console (${mode} mode) on http://${host}:${port}`);
    current = run(["start", "-p", port, "-H", host], env);
    code = await exitCode(current);
  }
  await seeded.catch(() => undefined);
  await stack?.close();
  process.exit(code);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  main().catch((error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  });
}

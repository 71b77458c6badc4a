import { type ChildProcess, execFile, spawn } from "node:child_process";
import { copyFile, mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "@decision-console/local-aws";
import type { ContainerStart } from "./dockerfile.ts";

export { freePort };

const run = promisify(execFile);

/**
 * Lays out what the image's final stage holds under `root/app` (adapter/dist compiled from the working tree,
 * the two package.json files, node_modules) so the image's own start command can run without Docker.
 */
export async function buildImageRoot(repoRoot: string, root: string): Promise<string> {
  const app = join(root, "app");
  await mkdir(join(app, "adapter"), { recursive: true });
  await run(
    process.execPath,
    [
      join(repoRoot, "node_modules", "typescript", "bin", "tsc"),
      "-p",
      join(repoRoot, "adapter", "tsconfig.json"),
      "--outDir",
      join(app, "adapter", "dist"),
    ],
    { cwd: repoRoot },
  );
  await copyFile(join(repoRoot, "package.json"), join(app, "package.json"));
  await copyFile(join(repoRoot, "adapter", "package.json"), join(app, "adapter", "package.json"));
  await symlink(join(repoRoot, "node_modules"), join(app, "node_modules"), "dir");
  return app;
}

export interface RunningContainer {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  stop: () => Promise<void>;
}

/** USER's `uid:gid` when it is numeric (a name needs the image's /etc/passwd). */
export function numericUser(user: string | undefined): { uid: number; gid: number } | undefined {
  const match = user?.match(/^(\d+)(?::(\d+))?$/);
  return match ? { uid: Number(match[1]), gid: Number(match[2] ?? match[1]) } : undefined;
}

/**
 * Whether this process can start a container's command as its USER: it runs as root and USER is numeric. Otherwise
 * the command runs as this process's own user.
 */
export function canRunAsImageUser(start: ContainerStart): boolean {
  return process.getuid?.() === 0 && numericUser(start.user) !== undefined;
}

/** Volumes mounted into the container: each container path (absolute) and the folder on this machine behind it. */
export type Mounts = Readonly<Record<string, string>>;

/** Where a container path is on this machine: inside the deepest mount that holds it, else under `root`. */
export function containerPathOnMachine(root: string, mounts: Mounts, containerPath: string): string {
  const mount = Object.keys(mounts)
    .filter((path) => containerPath === path || containerPath.startsWith(`${path}/`))
    .sort((a, b) => b.length - a.length)[0];
  return mount === undefined ? join(root, containerPath) : join(mounts[mount]!, containerPath.slice(mount.length));
}

/**
 * Starts `command` (default: the image's ENTRYPOINT + CMD) with exactly its ENV, absolute container paths (`/app`,
 * `/opt/ml/...`) mapped into `root` or into the mount that holds them, plus only what SageMaker itself or the
 * console's CreateModel adds (`extraEnv`), as the image's numeric USER where canRunAsImageUser says this process can
 * switch to it. A mount at /tmp is where the process's temporary files go (TMPDIR, which os.tmpdir() reads).
 */
export function startContainer(
  start: ContainerStart,
  root: string,
  extraEnv: Record<string, string>,
  command: readonly string[] = start.command,
  mounts: Mounts = {},
): RunningContainer {
  const mapPath = (value: string) => (value.startsWith("/") ? containerPathOnMachine(root, mounts, value) : value);
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: join(root, "root") };
  if (mounts["/tmp"] !== undefined) env.TMPDIR = mounts["/tmp"];
  for (const [name, value] of Object.entries(start.env)) env[name] = mapPath(value);
  Object.assign(env, extraEnv);
  const [executable = "", ...args] = command;
  const child = spawn(executable === "node" ? process.execPath : executable, args, {
    cwd: mapPath(start.workdir),
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
    ...(canRunAsImageUser(start) ? numericUser(start.user) : {}),
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

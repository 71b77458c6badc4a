// Plain JavaScript, run by Node.js directly: a build's shell is started through it.
import { spawn } from "node:child_process";
import { constants } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { exitWithParentArgs } from "./exit-with-parent.mjs";

const SELF = path.join(import.meta.dirname, "process-group.mjs");

/**
 * The command that runs `file args` as the leader of a process group of its own, which ends as a whole (every
 * process the command started, however deep) when the command ends, when this group runner is stopped (SIGTERM,
 * SIGINT: StopBuild) and when the process that started it dies, even by SIGKILL (exit-with-parent).
 * @param {string} file
 * @param {string[]} args
 * @returns {{ file: string; args: string[] }}
 */
export function processGroupCommand(file, args) {
  return { file: process.execPath, args: [...exitWithParentArgs(), SELF, file, ...args] };
}

/** @param {number} pgid @param {NodeJS.Signals} signal */
function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is already empty
  }
}

function run() {
  const [file, ...args] = process.argv.slice(2);
  if (!file) throw new Error("usage: process-group.mjs <file> [args...]");
  const child = spawn(file, args, { stdio: "inherit", detached: true });
  const pgid = /** @type {number} */ (child.pid);
  const stop = () => signalGroup(pgid, "SIGTERM");
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  // Whatever ends this runner (a forced exit included) takes what is left of the group with it.
  process.on("exit", () => signalGroup(pgid, "SIGKILL"));
  child.on("error", (error) => {
    console.error(`${file}: ${error.message}`);
    process.exit(127);
  });
  child.on("exit", (code, signal) => {
    process.exitCode = code ?? 128 + (signal ? constants.signals[signal] : 0);
    // Background processes the command left behind end with it, as a CodeBuild container ends after its build.
    signalGroup(pgid, "SIGKILL");
  });
}

if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === pathToFileURL(SELF).href) run();

// Plain JavaScript so that any Node.js child can preload it (`node --import <url>`): next-server and the adapter
// built to adapter/dist run without tsx.
import path from "node:path";
import { pathToFileURL } from "node:url";

const CHECK_INTERVAL_MS = 250;
const FORCED_EXIT_AFTER_MS = 10_000;

/**
 * Stops this process once `parentPid` is no longer its parent (the parent died, even by SIGKILL, and the process
 * was re-parented): SIGTERM to itself, so the program's own shutdown runs, and a forced exit 10 s later.
 * @param {number} parentPid
 */
export function exitWithParent(parentPid) {
  const check = () => {
    if (process.ppid === parentPid) return;
    clearInterval(timer);
    setTimeout(() => process.exit(1), FORCED_EXIT_AFTER_MS).unref();
    process.kill(process.pid, "SIGTERM");
  };
  const timer = setInterval(check, CHECK_INTERVAL_MS);
  timer.unref();
  check();
}

/** Node.js options that make a child started by this process exit when this process dies. */
export function exitWithParentArgs() {
  const url = pathToFileURL(path.join(import.meta.dirname, "exit-with-parent.mjs"));
  url.searchParams.set("parent", String(process.pid));
  return ["--import", url.href];
}

/** Drops this preload from `process.execArgv`, so processes this one forks (node-llama-cpp does) do not inherit it. */
function forgetPreload() {
  const self = new URL(import.meta.url);
  self.search = "";
  const index = process.execArgv.findIndex((arg) => arg.includes(self.href));
  if (index < 0) return;
  const separate = process.execArgv[index] !== undefined && !process.execArgv[index].startsWith("--import=");
  process.execArgv.splice(separate && process.execArgv[index - 1] === "--import" ? index - 1 : index, separate ? 2 : 1);
}

const parent = Number(new URL(import.meta.url).searchParams.get("parent"));
if (Number.isInteger(parent) && parent > 0) {
  forgetPreload();
  exitWithParent(parent);
}

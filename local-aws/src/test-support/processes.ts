import fs from "node:fs";

/** Whether `pid` is a live process (a zombie, dead but not yet reaped by its new parent, counts as gone). */
export function isRunning(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Pids of the live children of `pid` (from /proc), with their command lines. */
export function childrenOf(pid: number): { pid: number; command: string }[] {
  const children: { pid: number; command: string }[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) !== pid || fields[0] === "Z") continue;
      const command = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      children.push({ pid: Number(entry), command });
    } catch {
      // the process ended while being read
    }
  }
  return children;
}

/** Resolves true once none of `pids` runs, false if some still do after `timeoutMs`. */
export async function allExit(pids: number[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(isRunning)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/** Pids of the live processes whose command line is exactly `argv` (from /proc). */
export function processesRunning(argv: readonly string[]): number[] {
  const wanted = `${argv.join("\0")}\0`;
  return fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return fs.readFileSync(`/proc/${entry}/cmdline`, "utf8") === wanted && isRunning(Number(entry));
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The parent of `pid` (from /proc). */
export function parentOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { allExit, isRunning } from "./test-support/processes.ts";

/**
 * A child started with `exitWithParentArgs()` stops when its parent dies, however it dies (issue 12, low 12), and
 * does not pass the watch on to processes it forks (`process.execArgv` no longer names it).
 */
const module = new URL("./exit-with-parent.mjs", import.meta.url).href;

/** A parent that starts one watched child, prints its pid and waits; the child prints what it would pass on. */
const parentScript = `
import { spawn } from "node:child_process";
import { exitWithParentArgs } from ${JSON.stringify(module)};
const watched = "console.log(JSON.stringify({ execArgv: process.execArgv })); setInterval(() => undefined, 1000);";
const child = spawn(process.execPath, [...exitWithParentArgs(), "-e", watched], { stdio: ["ignore", "inherit", "inherit"] });
console.log(JSON.stringify({ child: child.pid }));
setInterval(() => undefined, 1000);
`;

describe("children started with exitWithParentArgs", () => {
  it("exit once their parent is killed with SIGKILL, and do not pass the watch on", async () => {
    const parent = spawn(process.execPath, ["--input-type=module", "-e", parentScript], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const lines: Record<string, unknown>[] = [];
    parent.stdout.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line));
    });
    const deadline = Date.now() + 20_000;
    while (lines.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const child = Number(lines.find((line) => "child" in line)?.child);
    const execArgv = lines.find((line) => "execArgv" in line)?.execArgv as string[];
    expect(isRunning(child)).toBe(true);
    expect(execArgv.join(" ")).not.toContain("exit-with-parent");

    parent.kill("SIGKILL");
    expect(await allExit([child], 10_000)).toBe(true);
  }, 30_000);
});

import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { allExit, isRunning } from "./test-support/processes.ts";

/**
 * A build's shell runs through `processGroupCommand`: it and everything it starts end when the process that started
 * it dies (even by SIGKILL), when the group is stopped, and when the shell itself is done.
 */
const module = new URL("./process-group.mjs", import.meta.url).href;

/** A parent that runs `script` in a process group and prints the pids the script reports; then waits. */
const parentScript = (script: string) => `
import { spawn } from "node:child_process";
import { processGroupCommand } from ${JSON.stringify(module)};
const { file, args } = processGroupCommand("bash", ["-c", ${JSON.stringify(script)}]);
const child = spawn(file, args, { stdio: ["ignore", "inherit", "inherit"] });
console.log(JSON.stringify({ runner: child.pid }));
process.on("SIGUSR2", () => child.kill("SIGTERM"));
child.on("exit", (code) => console.log(JSON.stringify({ exit: code })));
setInterval(() => undefined, 1000);
`;

/** A shell with a foreground and a background grandchild, which prints all three pids. */
const SHELL = 'sleep 300 & sleep 301 & echo "{\\"pids\\": [$$, $!]}"; wait';

function startParent(script: string) {
  const parent = spawn(process.execPath, ["--input-type=module", "-e", parentScript(script)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines: Record<string, unknown>[] = [];
  parent.stdout.on("data", (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line));
  });
  const read = async (key: string) => {
    const deadline = Date.now() + 20_000;
    while (!lines.some((line) => key in line) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return lines.find((line) => key in line)?.[key];
  };
  return { parent, read };
}

describe("processGroupCommand", () => {
  it("ends the shell and every process under it once the parent is killed with SIGKILL", async () => {
    const { parent, read } = startParent(SHELL);
    const runner = Number(await read("runner"));
    const pids = (await read("pids")) as number[];
    expect([runner, ...pids].every(isRunning)).toBe(true);
    parent.kill("SIGKILL");
    expect(await allExit([runner, ...pids], 15_000)).toBe(true);
  }, 30_000);

  it("ends the whole group when it is stopped, as StopBuild does", async () => {
    const { parent, read } = startParent(SHELL);
    const pids = (await read("pids")) as number[];
    parent.kill("SIGUSR2");
    expect(await read("exit")).toBe(143);
    expect(await allExit(pids, 10_000)).toBe(true);
    parent.kill("SIGKILL");
  }, 30_000);

  it("ends what the shell left in the background once the shell is done, with the shell's status", async () => {
    const { parent, read } = startParent('sleep 302 & echo "{\\"pids\\": [$!]}"; exit 3');
    const pids = (await read("pids")) as number[];
    expect(await read("exit")).toBe(3);
    expect(await allExit(pids, 10_000)).toBe(true);
    parent.kill("SIGKILL");
  }, 30_000);
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AdapterProcess } from "./adapter-process.ts";

/**
 * A container whose port is taken by the time it binds (picked free, then given to the child: an outgoing
 * connection may take it in between on a busy host) is started again on another port, not failed; an exit for any
 * other reason still fails the start-up health check with the container's last lines.
 */
const scratch: string[] = [];
const processes: AdapterProcess[] = [];
afterEach(async () => {
  await Promise.all(processes.splice(0).map((adapter) => adapter.stop()));
  for (const dir of scratch.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A stand-in image: binds SAGEMAKER_BIND_TO_PORT and answers /ping, or exits as `behaviour` says. */
function launch(behaviour: "port-taken-once" | "crash") {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adapter-process-"));
  scratch.push(dir);
  const script = path.join(dir, "server.mjs");
  fs.writeFileSync(
    script,
    `import fs from "node:fs";
import http from "node:http";
const marker = ${JSON.stringify(path.join(dir, "started-once"))};
if (${JSON.stringify(behaviour)} === "crash") { console.error("model file is corrupt"); process.exit(3); }
const port = Number(process.env.SAGEMAKER_BIND_TO_PORT);
const server = http.createServer((request, response) => response.end("ok"));
if (!fs.existsSync(marker)) {
  fs.writeFileSync(marker, "");
  // Bind a port another process holds, as a taken port fails.
  const holder = http.createServer().listen(0, "127.0.0.1", () => {
    server.on("error", (error) => { console.error(String(error)); process.exit(1); });
    server.listen(holder.address().port, "127.0.0.1");
  });
} else {
  server.listen(port, "127.0.0.1");
}
`,
  );
  const lines: string[] = [];
  const adapter = new AdapterProcess({
    program: { args: [script], cwd: dir },
    contract: "adapter",
    modelDir: dir,
    home: path.join(dir, "home"),
    environment: {},
    onLine: (line) => lines.push(line),
  });
  processes.push(adapter);
  return { adapter, lines, dir };
}

describe("a local instance's start", () => {
  it("starts the container again on another port when its port was taken, and serves there", async () => {
    const { adapter, lines } = launch("port-taken-once");
    let replaced = 0;
    adapter.onUnexpectedExit = () => replaced++;
    await adapter.start();
    const firstPort = adapter.port;
    await adapter.waitUntilHealthy(30_000);
    expect(lines.some((line) => line.includes("EADDRINUSE"))).toBe(true);
    expect(adapter.running).toBe(true);
    expect(await (await fetch(`${adapter.url}/ping`)).text()).toBe("ok");
    expect(adapter.port).not.toBe(firstPort);
    expect(replaced).toBe(0);
  });

  it("fails the health check with the container's own reason when it exits otherwise", async () => {
    const { adapter } = launch("crash");
    await adapter.start();
    await expect(adapter.waitUntilHealthy(30_000)).rejects.toThrow(
      /the container exited with code 3: model file is corrupt/,
    );
  });

  it("reports an exit after it was healthy, for SageMaker's replacement of the instance", async () => {
    const { adapter } = launch("port-taken-once");
    const exits: string[] = [];
    adapter.onUnexpectedExit = (tail) => exits.push(tail);
    await adapter.start();
    await adapter.waitUntilHealthy(30_000);
    process.kill(adapter.pid as number, "SIGKILL");
    await expect.poll(() => exits.length, { timeout: 10_000 }).toBe(1);
  });
});

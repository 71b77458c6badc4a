import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { DescribeEndpointCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import { freePort, readLocalAccessKey } from "@decision-console/local-aws";
import {
  allExit,
  childrenOf,
  createEndpoint,
  isRunning,
  testExecutionRoleArn,
} from "@decision-console/local-aws/testing";
import { afterAll, describe, expect, it } from "vitest";
import { buildIsStale } from "../../scripts/start.ts";

/**
 * Killing only `npm start`'s process, even with SIGKILL, leaves no next-server or adapter behind, and the next start
 * on the same ports works (issue 12, low 12); SIGTERM to it stops everything and frees both ports (issue 51, item 10).
 * Runs the real `npm start`, so it needs a current `next build` (npm test builds one first).
 */
const repo = path.resolve(import.meta.dirname, "../..");
let scratch: string | undefined;
const started: ChildProcess[] = [];
const seen = new Set<number>();
const stale = buildIsStale(repo);

afterAll(() => {
  for (const pid of seen) if (isRunning(pid)) process.kill(pid, "SIGKILL");
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

function start(env: Record<string, string>): ChildProcess {
  const clean: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(clean)) {
    if (name.startsWith("AWS_") || name.startsWith("CONSOLE_") || name.startsWith("LOCAL_")) delete clean[name];
  }
  const child = spawn("npm", ["start"], {
    cwd: repo,
    env: { ...clean, NEXT_TELEMETRY_DISABLED: "1", LOCAL_ADAPTER_THREADS: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.resume();
  child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(chunk));
  started.push(child);
  seen.add(child.pid!);
  return child;
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The start script's own node process (npm's child), next-server, and the adapters it started. */
function processTree(npmPid: number) {
  const script = childrenOf(npmPid).find((child) => child.command.includes("scripts/start.ts"));
  const children = script ? childrenOf(script.pid) : [];
  const tree = {
    script: script?.pid,
    nextServer: children.filter((child) => /next(-server| start)/.test(child.command)).map((child) => child.pid),
    adapters: children.filter((child) => child.command.includes("cli.ts serve")).map((child) => child.pid),
  };
  for (const pid of [tree.script, ...tree.nextServer, ...tree.adapters]) if (pid) seen.add(pid);
  return tree;
}

describe.skipIf(stale)(
  `npm start's process killed with SIGKILL${stale ? " (skipped: no current next build)" : ""}`,
  () => {
    it("takes next-server and the adapters with it, and the next start on the same ports works", async () => {
      scratch = fs.mkdtempSync(path.join(os.tmpdir(), "console-start-death-"));
      const dataDir = path.join(scratch, "data");
      const ports = { PORT: String(await freePort()), LOCAL_AWS_PORT: String(await freePort()) };
      const env = { ...ports, CONSOLE_DATA_DIR: dataDir, HOST: "127.0.0.1" };
      const health = `http://127.0.0.1:${ports.PORT}/api/health`;
      const ready = () =>
        until(
          "the console's health",
          async () => {
            const response = await fetch(health);
            const body = (await response.json()) as { controlPlane?: { status: string } };
            return response.status === 200 && body.controlPlane?.status === "ok" ? body : undefined;
          },
          240_000,
        );

      // Each start issues new keys: read the admin's from the credentials file every time.
      const config = () => ({
        region: "us-east-1",
        endpoint: `http://127.0.0.1:${ports.LOCAL_AWS_PORT}`,
        credentials: readLocalAccessKey(dataDir, "admin"),
        maxAttempts: 1,
      });
      const first = start(env);
      await ready();
      const modelKey = "models/seed/synthetic-tiny/model.tar.gz";
      const s3 = new S3Client({ ...config(), forcePathStyle: true });
      await until(
        "the seeded model",
        () => s3.send(new HeadObjectCommand({ Bucket: "decision-console-local", Key: modelKey })),
        120_000,
      );
      const sageMaker = new SageMakerClient(config());
      const tree = await until(
        "the start script's processes",
        async () => {
          const found = processTree(first.pid!);
          return found.script && found.nextServer.length > 0 ? found : undefined;
        },
        30_000,
      );
      await createEndpoint(
        sageMaker,
        "survivor",
        {
          Image: "000000000000.dkr.ecr.us-east-1.amazonaws.com/decision-adapter:cpu",
          ModelDataUrl: `s3://decision-console-local/${modelKey}`,
          Environment: { ADAPTER_THREADS: "1" },
        },
        { executionRoleArn: testExecutionRoleArn() },
      );
      const inService = async () => {
        const described = await new SageMakerClient(config()).send(
          new DescribeEndpointCommand({ EndpointName: "survivor" }),
        );
        return described.EndpointStatus === "InService" ? true : undefined;
      };
      await until("the endpoint to be InService", inService, 120_000);
      const adapters = processTree(first.pid!).adapters;
      expect(adapters.length).toBe(1);

      // 1. SIGKILL npm start's own process: the script under it notices and stops everything it started.
      first.kill("SIGKILL");
      expect(await allExit([tree.script!, ...tree.nextServer, ...adapters], 30_000)).toBe(true);

      // 2. Start again on the same ports, then SIGKILL the start script's own process (npm's child).
      const second = start(env);
      await ready();
      await until("the restored endpoint", inService, 120_000);
      const again = await until(
        "the restored adapter",
        async () => {
          const found = processTree(second.pid!);
          return found.adapters.length > 0 && found.nextServer.length > 0 ? found : undefined;
        },
        60_000,
      );
      process.kill(again.script!, "SIGKILL");
      expect(await allExit([...again.nextServer, ...again.adapters, second.pid!], 30_000)).toBe(true);

      // 3. Start again, then SIGTERM npm start's own process, as a service manager or `kill <pid>` does: the console
      // drains, the control plane stops its adapters, and both ports are free.
      const third = start(env);
      await ready();
      await until("the restored endpoint", inService, 120_000);
      const last = await until(
        "the restored adapter",
        async () => {
          const found = processTree(third.pid!);
          return found.adapters.length > 0 && found.nextServer.length > 0 ? found : undefined;
        },
        60_000,
      );
      third.kill("SIGTERM");
      expect(await allExit([third.pid!, last.script!, ...last.nextServer, ...last.adapters], 60_000)).toBe(true);
      for (const port of [ports.PORT, ports.LOCAL_AWS_PORT]) expect(await portIsFree(Number(port))).toBe(true);
    }, 900_000);
  },
);

import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import { createInterface } from "node:readline";
import { exitWithParentArgs } from "../exit-with-parent.mjs";
import { freePort } from "../free-port.ts";
import type { ContainerContract, InstanceProgram } from "../stack-fixture.ts";
import { instanceEnvironment } from "./container-environment.ts";

export interface AdapterLaunch {
  /** What the instance's image runs (the fixture's program for its repository and variant). */
  program: InstanceProgram;
  /** The container contract of the image, which decides the variables it is started with. */
  contract: ContainerContract;
  modelDir: string;
  /** The instance's own directory (its HOME), not the console's. */
  home: string;
  /** The container's Environment from CreateModel, screened to the adapter's documented variables. */
  environment: Record<string, string>;
  /** Receives every line the adapter writes (stdout and stderr), for the endpoint's log stream. */
  onLine: (line: string) => void;
}

const TAIL_LINES = 30;
/**
 * How often an instance is started again on another port when its port was taken before it bound it: the port is
 * picked free, then given to the child, and an outgoing connection may take it in between (a busy host).
 */
const PORT_TAKEN_RESTARTS = 3;

/** One local instance of an endpoint variant: the adapter running as a child process on a loopback port. */
export class AdapterProcess {
  private child: ChildProcess | undefined;
  private readonly tail: string[] = [];
  private exitInfo: { code: number | null; signal: string | null } | undefined;
  private stopping = false;
  private healthy = false;
  private linesSeen = 0;
  private linesBeforeStart = 0;
  port = 0;
  onUnexpectedExit: ((tail: string) => void) | undefined;

  constructor(private readonly launch: AdapterLaunch) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.exitInfo === undefined;
  }

  /** Lines the adapter wrote last, the reason SageMaker would point at in the endpoint's logs. */
  tailText(): string {
    return this.tail.join("\n");
  }

  async start(): Promise<void> {
    this.exitInfo = undefined;
    this.linesBeforeStart = this.linesSeen;
    this.port = await freePort();
    fs.mkdirSync(this.launch.home, { recursive: true });
    // Nothing of the console's own environment: the instance sees what a container would, and exits with its parent.
    const { program, contract } = this.launch;
    const child = spawn(process.execPath, [...exitWithParentArgs(), ...program.args], {
      cwd: program.cwd,
      env: instanceEnvironment(this.launch.environment, {
        contract,
        modelDir: this.launch.modelDir,
        port: this.port,
        home: this.launch.home,
        defaultThreads: process.env.LOCAL_ADAPTER_THREADS ?? "1",
      }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream! }).on("line", (line) => {
        this.linesSeen++;
        this.tail.push(line);
        if (this.tail.length > TAIL_LINES) this.tail.shift();
        this.launch.onLine(line);
      });
    }
    // "close", not "exit": its last lines (the reason it stopped) have been read by then.
    child.on("close", (code, signal) => {
      this.exitInfo = { code, signal };
      // Before its first healthy /ping, an exit is the start-up health check's to report.
      if (!this.stopping && this.healthy) this.onUnexpectedExit?.(this.tailText());
    });
    child.on("error", (error) => {
      this.tail.push(`failed to start the adapter: ${error.message}`);
      this.exitInfo = { code: null, signal: null };
    });
  }

  /**
   * Polls `/ping` until it answers 200 (ready), the process exits (its output tail is the reason), or the
   * start-up health-check timeout passes.
   */
  async waitUntilHealthy(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let restarts = 0;
    while (Date.now() < deadline) {
      if (this.exitInfo && !this.stopping && restarts < PORT_TAKEN_RESTARTS && this.portTaken()) {
        restarts++;
        this.tail.push(`port ${this.port} was taken before the container bound it; starting it on another port`);
        await this.start();
        continue;
      }
      if (this.exitInfo) {
        const how = this.exitInfo.signal ? `signal ${this.exitInfo.signal}` : `code ${this.exitInfo.code}`;
        throw new Error(`the container exited with ${how}: ${lastMeaningfulLines(this.tail)}`);
      }
      try {
        const response = await fetch(`${this.url}/ping`, { signal: AbortSignal.timeout(2000) });
        await response.arrayBuffer();
        if (response.status === 200 && !this.exitInfo) {
          this.healthy = true;
          return;
        }
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(
      `/ping did not answer 200 within ${Math.round(timeoutMs / 1000)} s: ${lastMeaningfulLines(this.tail)}`,
    );
  }

  /** Whether the child now exited said its port was in use (only its own lines, not an earlier child's). */
  private portTaken(): boolean {
    const own = Math.min(this.linesSeen - this.linesBeforeStart, this.tail.length);
    return own > 0 && this.tail.slice(-own).some((line) => line.includes("EADDRINUSE"));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || this.exitInfo) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    const killTimer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(killTimer);
  }
}

function lastMeaningfulLines(tail: string[]): string {
  const lines = tail.filter((line) => line.trim() !== "").slice(-5);
  return lines.length > 0 ? lines.join(" | ") : "(no output)";
}

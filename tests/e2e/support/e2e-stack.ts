import { type ChildProcess, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { consoleEnvironment, publishHubFile, startHubStandIn, startLocalStack } from "@decision-console/local-aws";
import { MetricClock } from "@decision-console/local-aws/testing";
import { workspaceStackFixture } from "../../../infra/local-stack/workspace-fixture.ts";
import { generateTinyModel } from "../../../scripts/local-seed/tiny-model.ts";
import { trainedModel } from "../../../scripts/models/trained-model.ts";
import { demoModelPreset } from "../../../server/presets/models.ts";
import { spawnNextStart } from "../../support/next-start.ts";
import { e2eSettings, type ModelPin, type TrainedModelPin } from "./e2e-settings.ts";
import { startMetricClockControl } from "./metric-clock.ts";

/**
 * The Playwright web server: a loopback Hugging Face stand-in serving a generated GGUF (and the trained model when
 * it is cached), the local control plane on
 * a fresh data directory with a metric clock the specs may move ahead (metric-clock.ts), and the console itself (`next build && next start`) pointed at both. Everything listens on
 * 127.0.0.1 and stops when Playwright stops this process.
 */
const settings = e2eSettings();
const repoRoot = path.resolve(import.meta.dirname, "..", "..", "..");
const children: ChildProcess[] = [];
const closers: (() => Promise<void>)[] = [];

async function publishModel(hubRoot: string): Promise<ModelPin> {
  const gguf = path.join(settings.stateDir, "tiny-decision.gguf");
  await generateTinyModel(gguf);
  const sha256 = createHash("sha256").update(fs.readFileSync(gguf)).digest("hex");
  const pin = {
    repo: "e2e-models/tiny-decision-GGUF",
    revision: "0123456789abcdef0123456789abcdef01234567",
    file: "tiny-decision.gguf",
    sha256,
  };
  publishHubFile(hubRoot, pin, gguf);
  return pin;
}

/**
 * The trained model, when `npm run models:fetch` cached it, at its preset's pin: the builds page then packages it
 * from the stand-in Hub as it would from Hugging Face (the packager checks the preset's sha256).
 */
function publishTrainedModel(hubRoot: string): TrainedModelPin | null {
  const cached = trainedModel();
  if (!cached.path) {
    console.error(`The browser tests use the generated model only: ${cached.skipReason}`);
    return null;
  }
  const { repo, revision, file, sha256 } = demoModelPreset.gguf;
  publishHubFile(hubRoot, { repo, revision, file }, cached.path);
  return { repo, revision, file, sha256, label: demoModelPreset.label };
}

/**
 * Builds into this run's own folder under .next (NEXT_DIST_DIR), so another `next build` in the same tree never
 * changes what this run serves. `next build` may add its type folder to tsconfig.json; the file is put back as it
 * was, since the repository's tsconfig already covers .next.
 */
function buildConsole(env: NodeJS.ProcessEnv): void {
  if (process.env.E2E_REUSE_BUILD === "1" && fs.existsSync(path.join(repoRoot, settings.distDir, "BUILD_ID"))) return;
  const tsconfig = path.join(repoRoot, "tsconfig.json");
  const original = fs.readFileSync(tsconfig, "utf8");
  // flock, where it exists, keeps two builds from competing for a small machine's cores at once.
  const flock = fs.existsSync("/usr/bin/flock") ? ["/usr/bin/flock", "/tmp/nextbuild.lock"] : [];
  const next = path.join(repoRoot, "node_modules", ".bin", "next");
  const [command, ...args] = [...flock, next, "build"];
  try {
    const result = spawnSync(command!, args, { cwd: repoRoot, env, stdio: "inherit" });
    if (result.status !== 0) throw new Error(`next build failed with status ${result.status}`);
  } finally {
    if (fs.readFileSync(tsconfig, "utf8") !== original) fs.writeFileSync(tsconfig, original);
  }
}

async function stop(): Promise<void> {
  for (const child of children) child.kill("SIGTERM");
  for (const close of closers.reverse()) await close().catch(() => undefined);
  if (process.env.E2E_REUSE_BUILD !== "1")
    fs.rmSync(path.join(repoRoot, settings.distDir), { recursive: true, force: true });
  fs.rmSync(settings.stateDir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  fs.rmSync(settings.stateDir, { recursive: true, force: true });
  fs.mkdirSync(settings.stateDir, { recursive: true });
  const hubRoot = path.join(settings.stateDir, "hub");
  const pin = await publishModel(hubRoot);
  const trainedPin = publishTrainedModel(hubRoot);
  const hub = await startHubStandIn({ root: hubRoot });
  closers.push(hub.close);

  // The control plane runs in this process and reads these when it packages models and places pools.
  process.env.HF_ENDPOINT = hub.url;
  process.env.LOCAL_AWS_SHORT_CAPACITY = settings.shortCapacityType;
  process.env.LOCAL_ADAPTER_THREADS ??= "1";
  const metricClock = new MetricClock();
  const stack = await startLocalStack({
    dataDir: settings.controlPlaneDataDir,
    fixture: workspaceStackFixture(repoRoot),
    port: 0,
    metricClock: metricClock.now,
  });
  closers.push(stack.close);
  closers.push(await startMetricClockControl(metricClock, stack.controlPlane));

  const env: NodeJS.ProcessEnv = {
    ...consoleEnvironment(process.env, stack),
    HF_ENDPOINT: hub.url,
    CONSOLE_DATA_DIR: path.join(settings.stateDir, "console"),
    CONSOLE_USERS: JSON.stringify([
      { name: settings.user.name, role: "operator", password: settings.user.password },
      { name: settings.viewer.name, role: "viewer", password: settings.viewer.password },
    ]),
    CONSOLE_SESSION_SECRET: "e2e-session-secret-that-is-long-enough-0123456789",
    CONSOLE_INVOKE_PER_MINUTE: "1000",
    CONSOLE_INVOKE_BURST: "100",
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_DIST_DIR: settings.distDir,
    NEXT_SKIP_TYPECHECK: "1",
  };
  buildConsole(env);
  fs.writeFileSync(settings.pinFile, JSON.stringify(pin));
  if (trainedPin) fs.writeFileSync(settings.trainedPinFile, JSON.stringify(trainedPin));
  fs.writeFileSync(settings.controlPlaneFile, stack.controlPlane.url);

  const next = spawnNextStart(settings.port, env, "inherit");
  children.push(next);
  next.on("exit", (code) => {
    console.error(`next start exited with ${code}`);
    void stop().then(() => process.exit(code ?? 1));
  });
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void stop().then(() => process.exit(0)));
}
main().catch(async (error) => {
  console.error(error);
  await stop();
  process.exit(1);
});

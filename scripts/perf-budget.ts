import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { quantileOf } from "@decision-console/adapter/contract";
import { consoleEnvironment, freePort, startLocalStack } from "@decision-console/local-aws";
import { arnOf, openLocalDatabase, SageMakerStore } from "@decision-console/local-aws/testing";
import { chromium, type Page } from "@playwright/test";
import { benchOut } from "../adapter/bench/bench-files.ts";
import { measuredOn, writeGeneratedSection } from "../bench/docs/generated-section.ts";
import { ADAPTER_REPOSITORY } from "../contract/stack/console-contract.ts";
import { workspaceStackFixture } from "../infra/local-stack/workspace-fixture.ts";
import { chromiumArgs, chromiumExecutablePath } from "../tests/e2e/support/chromium.ts";

/**
 * `npm run perf:budget`: the console's performance budget, measured in Chromium against `next start` on local mode.
 * - The endpoints page with 500 endpoints is interactive (table rendered and the filter answering) in < 1.5 s.
 * - First-load JavaScript of each page, as the browser downloads it, gzip-compressed, is <= 250 kB.
 * The 500 endpoints are written straight into the local control plane's store (InService, Failed and fallback
 * pools), because starting 500 adapter processes would measure this machine's memory, not the console.
 */
const { values: flags } = parseArgs({
  options: {
    endpoints: { type: "string", default: "500" },
    runs: { type: "string", default: "5" },
    "dist-dir": { type: "string" },
    "reuse-build": { type: "boolean", default: false },
    "keep-doc": { type: "boolean", default: false },
  },
});
const endpointCount = Number(flags.endpoints) || 500;
const interactiveBudgetMs = 1500;
const firstLoadBudgetBytes = 250 * 1024;
const measuredRuns = Number(flags.runs) || 5;
const repoRoot = path.resolve(import.meta.dirname, "..");

type Report = {
  measuredAt: string;
  machine: string;
  endpointsPage: {
    coldFirstVisit: { interactiveMs: number };
    runs: { interactiveMs: number }[];
    medianInteractiveMs: number;
  };
  firstLoadJs: { route: string; kB: number }[];
  firstLoadBudgetKb: number;
};

/** The "Measured" block of docs/console-performance.md, from this run's report. */
function measuredTable(report: Report, chromiumVersion: string): string {
  const interactive = report.endpointsPage.runs.map((run) => run.interactiveMs);
  const ms = (value: number) => `${Math.round(value).toLocaleString("en-US")} ms`;
  return [
    measuredOn(
      new Date(report.measuredAt),
      `${report.machine}, Node ${process.versions.node}, Chromium ${chromiumVersion}, Next.js production build`,
      "npm run perf:budget",
    ),
    "",
    "| Measure | Result | Budget |",
    "| --- | --- | --- |",
    `| Endpoints page, ${endpointCount} endpoints, first visit after server start (cold summary cache) | ${ms(report.endpointsPage.coldFirstVisit.interactiveMs)} | (not budgeted) |`,
    `| Endpoints page, ${endpointCount} endpoints, median of ${interactive.length} warm visits | ${ms(report.endpointsPage.medianInteractiveMs)} (${Math.round(Math.min(...interactive))}-${Math.round(Math.max(...interactive))}) | < ${interactiveBudgetMs.toLocaleString("en-US")} ms |`,
    ...report.firstLoadJs.map(
      (entry) => `| First-load JS \`${entry.route}\` | ${entry.kB.toFixed(1)} kB | <= ${report.firstLoadBudgetKb} kB |`,
    ),
  ].join("\n");
}

function seedEndpoints(dataDir: string, imageDigest: string): void {
  const db = openLocalDatabase(dataDir);
  const store = new SageMakerStore(db);
  const region = "us-east-1";
  const image = `000000000000.dkr.ecr.${region}.amazonaws.com/${ADAPTER_REPOSITORY}@${imageDigest}`;
  const started = Date.now() / 1000 - endpointCount * 60;
  db.transaction(() => {
    for (let index = 0; index < endpointCount; index++) {
      // Named with the local stack's prefix, so the console may describe each one, as it must on AWS.
      const name = `dc-perf-${String(index).padStart(4, "0")}`;
      const createdAt = started + index * 60;
      const pooled = index % 5 === 0;
      const failed = index % 17 === 0;
      store.insertModel({
        ModelName: name,
        ModelArn: arnOf(region, "model", name),
        PrimaryContainer: {
          Image: image,
          ModelDataUrl: `s3://decision-console-local/models/${name}/model.tar.gz`,
          Environment: { ADAPTER_THREADS: "4", SEMIF_MAX_IN_FLIGHT: "1" },
        },
        EnableNetworkIsolation: true,
        CreationTime: createdAt,
      });
      store.insertEndpointConfig({
        EndpointConfigName: name,
        EndpointConfigArn: arnOf(region, "endpoint-config", name),
        ProductionVariants: [
          pooled
            ? {
                VariantName: "AllTraffic",
                ModelName: name,
                InitialInstanceCount: 1,
                InstancePools: [
                  { InstanceType: "ml.g6e.xlarge", Priority: 1 },
                  { InstanceType: "ml.g6.2xlarge", Priority: 2 },
                ],
                VariantInstanceProvisionTimeoutInSeconds: 900,
              }
            : { VariantName: "AllTraffic", ModelName: name, InitialInstanceCount: 1, InstanceType: "ml.c6i.2xlarge" },
        ],
        CreationTime: createdAt,
      });
      const servingType = pooled ? "ml.g6.2xlarge" : "ml.c6i.2xlarge";
      store.insertEndpoint({
        name,
        configName: name,
        status: failed ? "Failed" : "InService",
        failureReason: failed ? "Unable to provision requested ML compute capacity." : null,
        deployment: {},
        variants: failed
          ? []
          : [
              {
                VariantName: "AllTraffic",
                ModelName: name,
                ...(pooled
                  ? { InstancePools: [{ InstanceType: servingType, CurrentInstanceCount: 1 }] }
                  : { InstanceType: servingType }),
                CurrentWeight: 1,
                DesiredWeight: 1,
                CurrentInstanceCount: 1,
                DesiredInstanceCount: 1,
                DeployedImages: [{ SpecifiedImage: image, ResolvedImage: image, ResolutionTime: createdAt }],
              },
            ],
        createdAt,
        updatedAt: createdAt,
      });
    }
  })();
  db.close();
}

function build(env: NodeJS.ProcessEnv, distDir: string): void {
  if (flags["reuse-build"] && fs.existsSync(path.join(repoRoot, distDir, "BUILD_ID"))) {
    console.log(`Reusing the console build in ${distDir} (--reuse-build).`);
    return;
  }
  console.log(`Building the console into ${distDir} …`);
  const tsconfig = path.join(repoRoot, "tsconfig.json");
  const original = fs.readFileSync(tsconfig, "utf8");
  const flock = fs.existsSync("/usr/bin/flock") ? ["/usr/bin/flock", "/tmp/nextbuild.lock"] : [];
  const [command, ...args] = [...flock, path.join(repoRoot, "node_modules", ".bin", "next"), "build"];
  try {
    const result = spawnSync(command!, args, { cwd: repoRoot, env, stdio: ["ignore", "inherit", "inherit"] });
    if (result.status !== 0) throw new Error(`next build failed with status ${result.status}`);
  } finally {
    if (fs.readFileSync(tsconfig, "utf8") !== original) fs.writeFileSync(tsconfig, original);
  }
}

async function waitForHealth(baseURL: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${baseURL}/api/health`)).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("next start did not answer /api/health within 60 s");
}

/** Milliseconds from navigation start until the whole table is rendered and its filter has answered. */
async function endpointsInteractive(page: Page, baseURL: string): Promise<{ tableMs: number; interactiveMs: number }> {
  await page.goto(`${baseURL}/endpoints`, { waitUntil: "commit" });
  await page.getByText(`${endpointCount} of ${endpointCount} shown`).waitFor({ timeout: 30_000 });
  const tableMs = await page.evaluate(() => performance.now());
  await page.getByLabel("Filter endpoints").fill(`dc-perf-${String(endpointCount - 1).padStart(4, "0")}`);
  await page.getByText(`1 of ${endpointCount} shown`).waitFor({ timeout: 10_000 });
  const interactiveMs = await page.evaluate(() => performance.now());
  return { tableMs, interactiveMs };
}

/** Every script the page loads on a cold visit, gzip-compressed as a server would send it. */
async function firstLoadJs(page: Page, url: string): Promise<number> {
  const bodies: Promise<Buffer>[] = [];
  const onResponse = (response: import("@playwright/test").Response) => {
    if (response.request().resourceType() === "script" && response.ok()) bodies.push(response.body());
  };
  page.on("response", onResponse);
  await page.goto(url, { waitUntil: "networkidle" });
  page.off("response", onResponse);
  const buffers = await Promise.all(bodies);
  return buffers.reduce((sum, body) => sum + gzipSync(body).length, 0);
}

/** The nearest-rank median: with the odd number of visits measured, the middle one. */
const median = (values: number[]) => quantileOf(values, 0.5) ?? Number.NaN;

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "decision-console-perf-"));
  const distDir = flags["dist-dir"] ?? `.next/perf-${process.pid}`;
  const children: ChildProcess[] = [];
  const stack = await startLocalStack({ dataDir: path.join(work, "aws"), port: 0, fixture: workspaceStackFixture() });
  try {
    const digest = stack.controlPlane.registry.digestForTag(ADAPTER_REPOSITORY, "cpu");
    if (!digest) throw new Error("the local registry has no decision-adapter:cpu image");
    seedEndpoints(path.join(work, "aws"), digest);
    const port = await freePort();
    const baseURL = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...consoleEnvironment({ ...process.env }, stack),
      CONSOLE_DATA_DIR: path.join(work, "console"),
      CONSOLE_USERS: "",
      CONSOLE_USERS_FILE: "",
      NEXT_DIST_DIR: distDir,
      NEXT_SKIP_TYPECHECK: "1",
      NEXT_TELEMETRY_DISABLED: "1",
    };
    build(env, distDir);
    const server = spawn(
      path.join(repoRoot, "node_modules", ".bin", "next"),
      ["start", "-H", "127.0.0.1", "-p", String(port)],
      {
        cwd: repoRoot,
        env,
        stdio: "ignore",
      },
    );
    children.push(server);
    await waitForHealth(baseURL);

    const browser = await chromium.launch({
      executablePath: chromiumExecutablePath,
      args: chromiumArgs,
    });
    try {
      const warm = await browser.newPage();
      const cold = await endpointsInteractive(warm, baseURL);
      await warm.close();
      const runs: { tableMs: number; interactiveMs: number }[] = [];
      for (let run = 0; run < measuredRuns; run++) {
        const context = await browser.newContext();
        runs.push(await endpointsInteractive(await context.newPage(), baseURL));
        await context.close();
      }
      const interactive = runs.map((run) => run.interactiveMs);
      const routes = [
        "/endpoints",
        "/endpoints/dc-perf-0001",
        "/deploy",
        "/builds",
        "/builds/perf-missing",
        "/playground",
        "/evaluate",
      ];
      const firstLoad: { route: string; gzipBytes: number }[] = [];
      for (const route of routes) {
        const context = await browser.newContext();
        firstLoad.push({ route, gzipBytes: await firstLoadJs(await context.newPage(), `${baseURL}${route}`) });
        await context.close();
      }
      const report = {
        measuredAt: new Date().toISOString(),
        machine: `${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, load ${os.loadavg()[0]?.toFixed(2)}`,
        endpoints: endpointCount,
        endpointsPage: {
          coldFirstVisit: cold,
          runs,
          medianInteractiveMs: median(interactive),
          maxInteractiveMs: Math.max(...interactive),
          budgetMs: interactiveBudgetMs,
        },
        firstLoadJs: firstLoad.map((entry) => ({ ...entry, kB: Math.round(entry.gzipBytes / 102.4) / 10 })),
        firstLoadBudgetKb: firstLoadBudgetBytes / 1024,
      };
      const out = path.join(benchOut, "perf-budget.json");
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);

      console.log(`\nEndpoints page with ${endpointCount} endpoints (Chromium, next start, local mode)`);
      console.log(
        `  first visit (server cold): table ${cold.tableMs.toFixed(0)} ms, interactive ${cold.interactiveMs.toFixed(0)} ms`,
      );
      for (const [index, run] of runs.entries()) {
        console.log(
          `  run ${index + 1}: table ${run.tableMs.toFixed(0)} ms, interactive ${run.interactiveMs.toFixed(0)} ms`,
        );
      }
      console.log(`  median interactive ${median(interactive).toFixed(0)} ms (budget < ${interactiveBudgetMs} ms)`);
      console.log("\nFirst-load JavaScript per page (gzip)");
      for (const entry of report.firstLoadJs) console.log(`  ${entry.route.padEnd(24)} ${entry.kB.toFixed(1)} kB`);
      console.log(`  budget <= ${firstLoadBudgetBytes / 1024} kB\nReport: ${path.relative(repoRoot, out)}`);
      if (!flags["keep-doc"]) {
        const doc = path.join(repoRoot, "docs", "console-performance.md");
        writeGeneratedSection(doc, "perf-budget", measuredTable(report, browser.version()));
        console.log(`Figures written to ${path.relative(repoRoot, doc)} (--keep-doc leaves it alone).`);
      }

      const overJs = firstLoad.filter((entry) => entry.gzipBytes > firstLoadBudgetBytes);
      const slow = median(interactive) >= interactiveBudgetMs;
      if (slow || overJs.length > 0) {
        console.error(
          `\nOver budget: ${[slow ? "endpoints page interactive time" : "", ...overJs.map((e) => e.route)].filter(Boolean).join(", ")}`,
        );
        process.exitCode = 1;
      }
    } finally {
      await browser.close();
    }
  } finally {
    for (const child of children) child.kill("SIGTERM");
    await stack.close();
    fs.rmSync(work, { recursive: true, force: true });
    if (!flags["dist-dir"]) fs.rmSync(path.join(repoRoot, distDir), { recursive: true, force: true });
  }
}

await main();

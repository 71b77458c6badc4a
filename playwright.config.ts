import fs from "node:fs";
import path from "node:path";
import { freePort } from "@decision-console/local-aws";
import { defineConfig, devices } from "@playwright/test";
import { chromiumArgs, chromiumExecutablePath } from "./tests/e2e/support/chromium.ts";
import { defaultStateDir } from "./tests/e2e/support/e2e-settings.ts";

// Set once in the runner; the web server and the workers inherit them.
process.env.E2E_PORT ??= String(await freePort());
if (!process.env.E2E_STATE_DIR) {
  // The runner that chose the state directory removes it when it exits, after the web server has stopped: the web
  // server's own clean-up is cut short when it takes longer than its graceful-shutdown window.
  const stateDir = defaultStateDir();
  process.env.E2E_STATE_DIR = stateDir;
  process.once("exit", () => fs.rmSync(stateDir, { recursive: true, force: true }));
}
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

export default defineConfig({
  testDir: "./tests/e2e",
  testMatch: /.*\.spec\.ts$/,
  // Overridable so two people's runs in one tree do not wipe each other's artifacts.
  outputDir: process.env.E2E_OUTPUT_DIR ?? "./test-results/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 300_000,
  expect: { timeout: 15_000 },
  reporter: [["list"], ["html", { outputFolder: "playwright-report", open: "never" }]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromiumExecutablePath,
      args: chromiumArgs,
    },
  },
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts$/ },
    {
      name: "chromium",
      dependencies: ["setup"],
      use: { ...devices["Desktop Chrome"], storageState: path.join(process.env.E2E_STATE_DIR, "operator.json") },
    },
  ],
  webServer: {
    command: "npx tsx tests/e2e/support/e2e-stack.ts",
    url: `${baseURL}/api/health`,
    timeout: 900_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
  },
});

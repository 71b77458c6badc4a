import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type ModelPin = { repo: string; revision: string; file: string; sha256: string };
/** The trained model's preset as the stand-in Hub serves it: its pin and its label in the console. */
export type TrainedModelPin = ModelPin & { label: string };

/**
 * Shared by the Playwright config, the web-server process and the specs through the environment, which the
 * config sets once in the runner process before any of the others start.
 */
export function e2eSettings() {
  const port = Number(process.env.E2E_PORT);
  const stateDir = process.env.E2E_STATE_DIR;
  if (!port || !stateDir) throw new Error("E2E_PORT and E2E_STATE_DIR are set by playwright.config.ts");
  return {
    port,
    baseURL: `http://127.0.0.1:${port}`,
    stateDir,
    /** This run's own Next.js build folder (under .next, which git, Biome and tsc already ignore). */
    distDir: process.env.E2E_DIST_DIR ?? `.next/e2e-${port}`,
    /** Written by the web server once the stand-in Hub serves the generated model. */
    pinFile: path.join(stateDir, "model-pin.json"),
    /** Written by the web server only when the models:fetch cache holds the trained model and the Hub serves it. */
    trainedPinFile: path.join(stateDir, "trained-model-pin.json"),
    /** The local control plane's URL, written by the web server for specs that act as another team (admin). */
    controlPlaneFile: path.join(stateDir, "control-plane-url"),
    /** The URL of the web server's metric-clock control (metric-clock.ts), written once it listens. */
    metricClockFile: path.join(stateDir, "metric-clock-url"),
    /** The control plane's data directory; its credentials file holds the admin profile. */
    controlPlaneDataDir: path.join(stateDir, "aws"),
    /** Instance type the local control plane treats as short of capacity, so the pool falls back. */
    shortCapacityType: "ml.g6e.xlarge",
    user: { name: "e2e-operator", password: "e2e-operator-password" },
    /** A second user with the viewer role, for specs that check what a viewer may and may not do. */
    viewer: { name: "e2e-viewer", password: "e2e-viewer-password" },
  };
}

export function readModelPin(): ModelPin {
  return JSON.parse(fs.readFileSync(e2eSettings().pinFile, "utf8")) as ModelPin;
}

/** The trained model's preset when this run serves it (`npm run models:fetch` cached it), else null. */
export function readTrainedModelPin(): TrainedModelPin | null {
  const file = e2eSettings().trainedPinFile;
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as TrainedModelPin) : null;
}

export function defaultStateDir(): string {
  return path.join(os.tmpdir(), `decision-console-e2e-${process.pid}`);
}

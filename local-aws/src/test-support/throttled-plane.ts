import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ControlPlane, startControlPlane } from "../control-plane.ts";
import { testStackFixture } from "./stack-fixture.ts";

/**
 * Control planes that throttle every service to one request a second (LOCAL_AWS_MAX_TPS=1) on a clock the test
 * holds, each in a scratch data directory that `closeAll` removes.
 */
export function throttledPlanes() {
  const started: { plane: ControlPlane; dataDir: string }[] = [];
  return {
    async start(clock: () => number): Promise<ControlPlane> {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-throttle-"));
      const plane = await startControlPlane({
        fixture: testStackFixture(),
        dataDir,
        port: 0,
        waitForEndpoints: false,
        maxRequestsPerSecond: 1,
        clock,
      });
      started.push({ plane, dataDir });
      return plane;
    },
    async closeAll(): Promise<void> {
      for (const { plane, dataDir } of started.splice(0)) {
        await plane.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

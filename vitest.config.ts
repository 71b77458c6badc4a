import { defineConfig } from "vitest/config";
import { workspaceStackFixture } from "./infra/local-stack/workspace-fixture.ts";

// One runner for every non-browser test (unit, model and integration); Playwright runs the browser suite.
export default defineConfig({
  resolve: {
    alias: {
      "@": new URL(".", import.meta.url).pathname,
      // Outside React Server Components `server-only` throws on import by design; tests are server code.
      "server-only": new URL("./node_modules/server-only/empty.js", import.meta.url).pathname,
    },
  },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["**/node_modules/**", "tests/e2e/**", ".next/**", "dist/**", "cdk.out/**"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // The stack every test's control plane stands in for, resolved for this checkout (local-aws/ reads it via inject).
    provide: { localStackFixture: workspaceStackFixture() },
    globalSetup: ["./tests/support/vitest-global-setup.ts"],
    pool: "forks",
    maxWorkers: 2,
  },
});

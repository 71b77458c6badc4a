import { defineConfig } from "vitest/config";

// One runner for every non-browser test. Files ending in `.model.test.ts` load a GGUF model and run in a
// single fork so two model loads never compete for this machine's two cores.
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
    pool: "forks",
    maxWorkers: 2,
  },
});

import path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * The evaluate and batch forms show Batch Transform's facts (instance types, limits, reasons) but validate nothing
 * in the browser, so they must not bring zod (about 95 kB gzip) into their pages: they read the facts from
 * `contract/batch/transform-limits.ts`, and the request schemas stay on the server.
 */
async function bundled(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [path.join(root, entry)],
    bundle: true,
    write: false,
    format: "esm",
    jsx: "automatic",
    alias: { "@": root },
    external: ["react", "react-dom", "next", "@tanstack/react-query"],
    logLevel: "silent",
  });
  return result.outputFiles.map((file) => file.text).join("\n");
}

describe("pages that validate nothing in the browser", () => {
  for (const entry of [
    "components/evaluate/new-evaluation-form.tsx",
    "components/batch/batch-resource-fields.tsx",
    "components/batch/start-job-form.tsx",
  ]) {
    it(`${entry} bundles without zod`, async () => {
      const code = await bundled(entry);
      expect(code).toContain("ml.c6i.large");
      expect(code).not.toMatch(/node_modules\/zod\//);
    });
  }
});

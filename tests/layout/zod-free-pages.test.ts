import path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * The evaluate and batch forms show Batch Transform's facts (instance types, limits, reasons) without bringing zod
 * (about 95 kB gzip) into their pages' first load: they read the facts from `contract/batch/transform-limits.ts`;
 * the batch start form loads its request-schema check in a chunk of its own (`import()`) once the page is there.
 * So only the entry's own chunk is searched, with the split chunks it loads later left out.
 */
async function bundled(entry: string): Promise<string> {
  const outdir = path.join(root, ".esbuild-out");
  const result = await build({
    entryPoints: [path.join(root, entry)],
    bundle: true,
    splitting: true,
    outdir,
    write: false,
    format: "esm",
    jsx: "automatic",
    alias: { "@": root },
    external: ["react", "react-dom", "next", "@tanstack/react-query"],
    logLevel: "silent",
  });
  const own = path.join(outdir, `${path.basename(entry, path.extname(entry))}.js`);
  const imported = (code: string) =>
    [...code.matchAll(/(?:from|import)\s*"\.\/(chunk-[^"]+\.js)"/g)].map((match) => path.join(outdir, match[1] ?? ""));
  const texts = new Map(result.outputFiles.map((file) => [file.path, file.text]));
  const first = new Set([own]);
  for (const file of first) for (const chunk of imported(texts.get(file) ?? "")) first.add(chunk);
  return result.outputFiles
    .filter((file) => first.has(file.path))
    .map((file) => file.text)
    .join("\n");
}

describe("pages whose first load brings no zod", () => {
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

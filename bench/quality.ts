import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { benchOut, jevbenchFile, jevbenchRows, repoRoot, stratifiedSample } from "../adapter/bench/bench-files.ts";
import { Progress } from "../adapter/bench/progress.ts";
import { readConfig } from "../adapter/src/engine/config.ts";
import { modelPin, TRAINED_MODEL } from "../scripts/models/pins.ts";
import { trainedModel } from "../scripts/models/trained-model.ts";
import { runVariants, type VariantSpec } from "./quality/run.ts";
import { qualitySummary } from "./quality/summary.ts";
import { qualityTables } from "./quality/table.ts";

/**
 * npm run bench:quality -- [--threads N] [--per-stratum N | --limit N] [--plain-debiased]
 *
 * JevBench's 231 decisions through the real adapter serving the trained model (`npm run models:fetch`), as
 * production sends them: one request per state (items on one state share a `decisions` request), one at a time,
 * the adapter's default settings otherwise. Variants: the GGUF's chat template with the options as sent, the same
 * with every cyclic option order averaged (order debiasing), and the adapter's plain-text prompt
 * (ADAPTER_PROMPT_TEMPLATE=fallback). Writes every item and the summary to bench/out/quality.json and prints the
 * summary tables; the summary is recomputable from the items (`tsx bench/quality/check.ts`). No absolute time is
 * printed: only how the variants' run times compare.
 */
const { values } = parseArgs({
  options: {
    threads: { type: "string" },
    "per-stratum": { type: "string" },
    limit: { type: "string" },
    "plain-debiased": { type: "boolean", default: false },
  },
});

const model = trainedModel();
/** Nothing to measure: the reason on stderr, and as the JSON line every bench ends its stdout with. */
function skip(reason: string): never {
  console.error(`bench:quality: skipped: ${reason}`);
  console.log(JSON.stringify({ skipped: reason }));
  process.exit(0);
}
if (model.path === null) skip(model.skipReason);
const jevbench = jevbenchFile();
if (!fs.existsSync(jevbench)) skip(`JevBench not found at ${jevbench}`);

const all = jevbenchRows();
const sampled = values["per-stratum"] ? stratifiedSample(all, Number(values["per-stratum"])) : all;
const rows = values.limit ? sampled.slice(0, Number(values.limit)) : sampled;
const env: Record<string, string> = values.threads ? { ADAPTER_THREADS: values.threads } : {};
const chat: VariantSpec[] = [
  { name: "chat template", template: "auto", permutations: 1 },
  { name: "chat template, debiased", template: "auto", permutations: "all" },
];
const plain: VariantSpec[] = [
  { name: "plain prompt", template: "fallback", permutations: 1 },
  ...(values["plain-debiased"]
    ? [{ name: "plain prompt, debiased", template: "fallback", permutations: "all" } as VariantSpec]
    : []),
];

const requestsPerVariant = new Set(rows.map((row) => JSON.stringify(row.state))).size;
const progress = new Progress("bench:quality requests", requestsPerVariant * (chat.length + plain.length));
const step = () => progress.step();
const results = [
  ...(await runVariants(model.path, env, "auto", chat, rows, step)),
  ...(await runVariants(model.path, env, "fallback", plain, rows, step)),
];

const config = readConfig({ ...env, ADAPTER_MODEL_PATH: model.path });
const pin = modelPin(TRAINED_MODEL);
const baseSeconds = results[0]!.seconds;
const report = {
  generated: new Date().toISOString(),
  command: `npm run bench:quality${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`,
  model: {
    name: pin.displayName,
    file: pin.file,
    sha256: pin.sha256,
    bytes: pin.bytes,
    package: `${pin.package}==${pin.version}`,
  },
  jevbench: {
    file: path.relative(repoRoot, jevbench),
    sha256: createHash("sha256").update(fs.readFileSync(jevbench)).digest("hex"),
    items: rows.length,
  },
  settings: {
    machine: `${os.cpus().length} CPUs, ${os.platform()} ${os.arch()}`,
    threads: config.threads,
    parallel: config.parallel,
    maxTokens: config.maxTokens,
    maxRequestTokens: config.maxRequestTokens,
    temperature: config.temperature,
    readingCache: config.readingCacheEntries,
    concurrency: 1,
  },
  variants: results.map(({ seconds, ...variant }) => ({ ...variant, timeRelativeToFirst: seconds / baseSeconds })),
  summary: qualitySummary(results),
};
const out = path.join(benchOut, "quality.json");
fs.mkdirSync(benchOut, { recursive: true });
fs.writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);

console.log(
  `bench:quality: ${report.model.name} (${pin.file}, sha256 ${pin.sha256.slice(0, 12)}…), ${rows.length} JevBench items, ${report.settings.threads} threads, ADAPTER_PARALLEL ${report.settings.parallel}, SEMIF_MAX_TOKENS ${report.settings.maxTokens}, run ${report.generated.slice(0, 10)}`,
);
console.log(
  `requests per variant: ${results[0]!.requests} (${results[0]!.sharedRequests} with shared decisions); request time relative to "${results[0]!.name}" (a debiased request follows it on the same state, which the adapter still holds): ${report.variants.map((v) => `${v.name} ${v.timeRelativeToFirst.toFixed(2)}`).join(", ")}`,
);
console.log("");
console.log(qualityTables(report.summary));
console.log(`\nitems and summary: ${path.relative(repoRoot, out)}`);
console.log(
  JSON.stringify({
    file: path.relative(repoRoot, out),
    items: rows.length,
    variants: report.summary.variants.map((v) => ({
      name: v.name,
      accuracy: v.accuracy.accuracy,
      chance: v.chance,
      brier: v.brier,
      ece: v.ece,
      eceAfterTemperature: v.temperature?.eceAfter ?? null,
    })),
  }),
);

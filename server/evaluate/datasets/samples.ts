import fs from "node:fs";
import path from "node:path";
import type { DatasetSummary, SampleDataset } from "../../../contract/evaluate/datasets.ts";
import type { Store } from "../../store/store.ts";
import { isUniqueViolation } from "../../store/unique-violation.ts";
import { findDatasetByName, insertDataset } from "./dataset-store.ts";
import { parseDataset } from "./parse-dataset.ts";

/** A built-in sample and where its file was found here (the browser gets the sample without the path). */
export type SampleFile = SampleDataset & { file: string | null };

const JEVBENCH = "jevbench";

/** The vendored copy first (MIT, notice beside it), then the project's shared bench folder. */
function jevbenchCandidates(root: string): string[] {
  return [
    path.join(root, "server/evaluate/samples/jevbench.jsonl"),
    path.resolve(root, "../shared/bench/jevbench.jsonl"),
  ];
}

export function listSamples(root: string = process.cwd()): SampleFile[] {
  const candidates = jevbenchCandidates(root);
  const file = candidates.find((candidate) => fs.existsSync(candidate)) ?? null;
  return [
    {
      name: JEVBENCH,
      title: "JevBench public decisions (231 items, MIT)",
      available: file !== null,
      reason: file === null ? `jevbench.jsonl was not found (looked in ${candidates.join(" and ")})` : null,
      file,
    },
  ];
}

export type SampleLoad = { ok: true; dataset: DatasetSummary } | { ok: false; message: string };

/** Stores a built-in sample once; asking again returns the stored copy. */
export async function loadSample(store: Store, name: string, root: string = process.cwd()): Promise<SampleLoad> {
  const sample = listSamples(root).find((candidate) => candidate.name === name);
  if (!sample) return { ok: false, message: `There is no built-in sample named "${name}".` };
  if (!sample.file) return { ok: false, message: `The ${name} sample is not available here: ${sample.reason}.` };
  const existing = await findDatasetByName(store, sample.name, "sample");
  if (existing) return { ok: true, dataset: existing };
  const parsed = parseDataset(fs.readFileSync(sample.file, "utf8"), "jsonl");
  if (!parsed.ok) return { ok: false, message: `The ${name} sample file is damaged (line ${parsed.errors[0]?.line}).` };
  const items = parsed.items;
  try {
    const dataset = await store
      .transaction()
      .execute((trx) => insertDataset(trx, { name, source: "sample", format: "jsonl", items }));
    return { ok: true, dataset };
  } catch (error) {
    // Another request (or console replica) stored it meanwhile: one copy per sample (migration 15).
    const stored = isUniqueViolation(error) ? await findDatasetByName(store, sample.name, "sample") : null;
    if (!stored) throw error;
    return { ok: true, dataset: stored };
  }
}

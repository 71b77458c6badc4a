import type { DatasetSummary } from "../../../contract/evaluate/datasets.ts";
import { AppError } from "../../http/app-error.ts";
import type { Db } from "../../store/database.ts";
import { createDataset, findDataset } from "./dataset-store.ts";
import { type DatasetFormat, describeRowErrors, detectFormat, parseDataset } from "./parse-dataset.ts";
import { loadSample } from "./samples.ts";

/** Validates a whole file and stores it only when every row is valid; otherwise a 400 naming each bad line. */
export function uploadDataset(
  db: Db,
  input: { name: string; text: string; format?: DatasetFormat; fileName?: string },
): DatasetSummary {
  const format = input.format ?? detectFormat(input.text, input.fileName);
  const parsed = parseDataset(input.text, format);
  if (!parsed.ok) {
    throw new AppError(
      "bad_request",
      `The ${format.toUpperCase()} file has problems: ${describeRowErrors(parsed.errors)}`,
      {
        errors: parsed.errors,
      },
    );
  }
  return createDataset(db, { name: input.name, source: "upload", format, items: parsed.items });
}

export function addSample(db: Db, name: string, root?: string): DatasetSummary {
  const loaded = loadSample(db, name, root);
  if (!loaded.ok) throw new AppError("not_found", loaded.message);
  return loaded.dataset;
}

/** Deletes a dataset no evaluation uses; its items go with it. */
export function deleteDataset(db: Db, id: string): void {
  if (!findDataset(db, id)) throw new AppError("not_found", `There is no dataset ${id}.`);
  const used = db.prepare("SELECT COUNT(*) AS n FROM evaluation_runs WHERE dataset_id = ?").get(id) as { n: number };
  if (used.n > 0) {
    throw new AppError(
      "conflict",
      `${used.n} evaluation(s) use this dataset; delete them first to keep their results.`,
    );
  }
  db.prepare("DELETE FROM evaluation_datasets WHERE id = ?").run(id);
}

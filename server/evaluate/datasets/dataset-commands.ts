import type { DatasetSummary } from "../../../contract/evaluate/datasets.ts";
import { AppError } from "../../http/app-error.ts";
import type { Store } from "../../store/store.ts";
import { createDataset, findDataset } from "./dataset-store.ts";
import { type DatasetFormat, describeRowErrors, detectFormat, parseDataset } from "./parse-dataset.ts";
import { loadSample } from "./samples.ts";

/** Validates a whole file and stores it only when every row is valid; otherwise a 400 naming each bad line. */
export async function uploadDataset(
  store: Store,
  input: { name: string; text: string; format?: DatasetFormat; fileName?: string },
): Promise<DatasetSummary> {
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
  return createDataset(store, { name: input.name, source: "upload", format, items: parsed.items });
}

export async function addSample(store: Store, name: string, root?: string): Promise<DatasetSummary> {
  const loaded = await loadSample(store, name, root);
  if (!loaded.ok) throw new AppError("not_found", loaded.message);
  return loaded.dataset;
}

/**
 * Deletes a dataset no evaluation uses; its items go with it. A run started on it meanwhile makes the delete fail
 * (the runs' foreign key), never orphans the run.
 */
export async function deleteDataset(store: Store, id: string): Promise<void> {
  if (!(await findDataset(store, id))) throw new AppError("not_found", `There is no dataset ${id}.`);
  const used = await store
    .selectFrom("evaluation_runs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("dataset_id", "=", id)
    .executeTakeFirstOrThrow();
  if (used.n > 0) {
    throw new AppError(
      "conflict",
      `${used.n} evaluation(s) use this dataset; delete them first to keep their results.`,
    );
  }
  await store.deleteFrom("evaluation_datasets").where("id", "=", id).execute();
}

import { PutObjectCommand } from "@aws-sdk/client-s3";
import type { DatasetExport } from "../../contract/batch/transform-jobs.ts";
import { ARTIFACT_PREFIXES } from "../../contract/stack/console-contract.ts";
import type { AwsClients } from "../aws/clients.ts";
import { awsCall } from "../aws/errors.ts";
import type { ConsoleSettings } from "../console-settings.ts";
import { datasetItems, findDataset } from "../evaluate/datasets/dataset-store.ts";
import { AppError } from "../http/app-error.ts";
import type { Store } from "../store/store.ts";

/** Items per input object: SageMaker gives each instance whole objects and writes an object's .out when it is done. */
export const ITEMS_PER_OBJECT = 100;

/**
 * The JSON Lines objects a transform job reads for a dataset, `ITEMS_PER_OBJECT` items each (so a job spreads over
 * its instances and shows progress object by object): each item's decision as a request body; labels stay here.
 */
export async function datasetJsonLines(store: Store, datasetId: string): Promise<{ key: string; text: string }[]> {
  const items = await datasetItems(store, datasetId);
  const lines = items.map((item) => `${JSON.stringify({ decision: item.decision })}\n`);
  const objects: { key: string; text: string }[] = [];
  for (let start = 0; start < lines.length; start += ITEMS_PER_OBJECT) {
    const number = String(objects.length + 1).padStart(5, "0");
    objects.push({ key: `items-${number}.jsonl`, text: lines.slice(start, start + ITEMS_PER_OBJECT).join("") });
  }
  return objects;
}

/** Writes a stored dataset under `s3://<artifact bucket>/batch/inputs/<dataset id>/`, a job's input prefix. */
export async function exportDataset(
  aws: Pick<AwsClients, "s3">,
  settings: ConsoleSettings,
  store: Store,
  datasetId: string,
): Promise<DatasetExport> {
  return writeDatasetJsonLines(aws, settings, store, datasetId, `${ARTIFACT_PREFIXES.batch}inputs/${datasetId}/`);
}

/** Writes a stored dataset's JSON Lines objects under `prefix` (inside batch/) of the artifact bucket. */
export async function writeDatasetJsonLines(
  aws: Pick<AwsClients, "s3">,
  settings: ConsoleSettings,
  store: Store,
  datasetId: string,
  prefix: string,
): Promise<DatasetExport> {
  if (!(await findDataset(store, datasetId))) throw new AppError("not_found", `There is no dataset ${datasetId}.`);
  const bucket = settings.artifactBucket;
  if (!bucket) {
    throw new AppError(
      "unavailable",
      "Exporting a dataset needs the artifact bucket: set CONSOLE_ARTIFACT_BUCKET (the stack's ArtifactBucketName).",
    );
  }
  const objects = await datasetJsonLines(store, datasetId);
  for (const object of objects) {
    await awsCall(`s3://${bucket}/${prefix}${object.key}`, () =>
      aws.s3.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: `${prefix}${object.key}`,
          Body: object.text,
          ContentType: "application/jsonlines",
        }),
      ),
    );
  }
  const records = objects.reduce((sum, object) => sum + object.text.split("\n").length - 1, 0);
  return { inputS3Uri: `s3://${bucket}/${prefix}`, records };
}

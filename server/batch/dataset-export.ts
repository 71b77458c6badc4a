import { PutObjectCommand } from "@aws-sdk/client-s3";
import type { DatasetExport } from "../../contract/batch/transform-jobs.ts";
import { ARTIFACT_PREFIXES } from "../../infra/cdk/console-contract.ts";
import type { AwsClients } from "../aws/clients.ts";
import { awsCall } from "../aws/errors.ts";
import type { ConsoleSettings } from "../context.ts";
import { datasetItems, findDataset } from "../evaluate/datasets/dataset-store.ts";
import { AppError } from "../http/app-error.ts";
import type { Db } from "../store/database.ts";

/** The JSON Lines a transform job reads for a dataset: each item's decision as a request body; labels stay here. */
export function datasetJsonLines(db: Db, datasetId: string): { text: string; records: number } {
  const items = datasetItems(db, datasetId);
  return {
    text: items.map((item) => `${JSON.stringify({ decision: item.decision })}\n`).join(""),
    records: items.length,
  };
}

/** Writes a stored dataset to `s3://<artifact bucket>/batch/inputs/<dataset id>/items.jsonl`, a job's input prefix. */
export async function exportDataset(
  aws: Pick<AwsClients, "s3">,
  settings: ConsoleSettings,
  db: Db,
  datasetId: string,
): Promise<DatasetExport> {
  if (!findDataset(db, datasetId)) throw new AppError("not_found", `There is no dataset ${datasetId}.`);
  const bucket = settings.artifactBucket;
  if (!bucket) {
    throw new AppError(
      "unavailable",
      "Exporting a dataset needs the artifact bucket: set CONSOLE_ARTIFACT_BUCKET (the stack's ArtifactBucketName).",
    );
  }
  const prefix = `${ARTIFACT_PREFIXES.batch}inputs/${datasetId}/`;
  const { text, records } = datasetJsonLines(db, datasetId);
  await awsCall(`s3://${bucket}/${prefix}items.jsonl`, () =>
    aws.s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: `${prefix}items.jsonl`,
        Body: text,
        ContentType: "application/jsonlines",
      }),
    ),
  );
  return { inputS3Uri: `s3://${bucket}/${prefix}`, records };
}

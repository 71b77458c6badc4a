import { ARTIFACT_PREFIXES, BATCH_DATA_FOLDERS } from "../../contract/stack/console-contract.ts";
import { parseS3Uri } from "../aws/s3-uri.ts";
import type { ConsoleSettings } from "../console-settings.ts";
import { AppError } from "../http/app-error.ts";

function artifactBucketOf(settings: ConsoleSettings): string {
  if (!settings.artifactBucket) {
    throw new AppError(
      "unavailable",
      "Batch jobs need the artifact bucket for their data: set CONSOLE_ARTIFACT_BUCKET (the stack's ArtifactBucketName).",
    );
  }
  return settings.artifactBucket;
}

/** Where a job's outputs go unless the request says: `<artifact bucket>/batch/outputs/<job>/`. */
export function defaultOutputS3Uri(settings: ConsoleSettings, name: string): string {
  return `s3://${artifactBucketOf(settings)}/${BATCH_DATA_FOLDERS.outputs}${name}/`;
}

function requireWithin(uri: string, bucket: string, folder: string, field: string, what: string) {
  const { bucket: given, prefix } = parseS3Uri(uri);
  if (given === bucket && prefix.startsWith(folder)) return;
  throw new AppError(
    "bad_request",
    `${field}: must be under s3://${bucket}/${folder}: the SageMaker execution role ${what} only there (the console keeps batch data under ${ARTIFACT_PREFIXES.batch}).`,
  );
}

/**
 * A job's input and output, refused before any AWS call where the execution role could not use them: it reads
 * inputs only under `batch/inputs/` and writes outputs only under `batch/outputs/` (so a job never overwrites one).
 */
export function checkTransformDataLocations(settings: ConsoleSettings, inputS3Uri: string, outputS3Uri: string) {
  const bucket = artifactBucketOf(settings);
  requireWithin(inputS3Uri, bucket, BATCH_DATA_FOLDERS.inputs, "inputS3Uri", "reads transform inputs");
  requireWithin(outputS3Uri, bucket, BATCH_DATA_FOLDERS.outputs, "outputS3Uri", "writes transform outputs");
}

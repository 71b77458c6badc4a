import { GetObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import type { AsyncOutcome } from "../../contract/invoke/invoke-async.ts";
import { awsCall } from "../aws/errors.ts";
import { objectExists } from "../aws/s3-object-exists.ts";
import { parseS3Uri } from "../aws/s3-uri.ts";
import { AppError } from "../http/app-error.ts";
import { decodeBody } from "./invoke.ts";

/** An `s3://bucket/key` URI as the bucket and key the S3 client takes. */
export function s3Object(uri: string): { Bucket: string; Key: string } {
  const { bucket, prefix } = parseS3Uri(uri);
  if (!bucket || !prefix) {
    throw new AppError("upstream", `SageMaker named ${uri} as an asynchronous result, not an s3:// object.`);
  }
  return { Bucket: bucket, Key: prefix };
}

/** Whether SageMaker has written the result object yet; the console's policy lists only the output and failure prefixes. */
export async function resultWritten(s3: S3Client, uri: string): Promise<boolean> {
  const { Bucket, Key } = s3Object(uri);
  return objectExists(s3, Bucket, Key, `the asynchronous result ${uri}`);
}

/** The result object's body, or null while SageMaker has not written it. */
async function readResultIfWritten(s3: S3Client, uri: string) {
  if (!(await resultWritten(s3, uri))) return null;
  const object = await awsCall(`the asynchronous result ${uri}`, () => s3.send(new GetObjectCommand(s3Object(uri))));
  const bytes = (await object.Body?.transformToByteArray()) ?? new Uint8Array();
  return decodeBody(bytes, object.ContentType);
}

/**
 * One look at a request's outcome at the locations InvokeEndpointAsync returned: the answer, the failure, or still
 * pending (queued or running).
 */
export async function asyncOutcome(
  s3: S3Client,
  sent: { outputLocation: string; failureLocation: string | null },
): Promise<AsyncOutcome> {
  // Only the two locations: the caller's record of the request carries more than the outcome's contract holds.
  const locations = { outputLocation: sent.outputLocation, failureLocation: sent.failureLocation };
  const answer = await readResultIfWritten(s3, locations.outputLocation);
  if (answer !== null) return { status: "completed", body: answer, ...locations };
  const failure = locations.failureLocation ? await readResultIfWritten(s3, locations.failureLocation) : null;
  if (failure !== null) return { status: "failed", body: failure, ...locations };
  return { status: "pending", body: null, ...locations };
}

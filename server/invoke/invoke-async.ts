import { GetObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import {
  DescribeEndpointCommand,
  DescribeEndpointConfigCommand,
  type SageMakerClient,
} from "@aws-sdk/client-sagemaker";
import { InvokeEndpointAsyncCommand, type SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import type { AsyncInvocation, AsyncOutcome } from "../../contract/invoke/invoke-async.ts";
import { asyncInferenceFolder } from "../../infra/cdk/console-contract.ts";
import { awsCall } from "../aws/errors.ts";
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

/** Where the console writes the body of request `inferenceId`: `async/<endpoint>/in/<inferenceId>.json`. */
export function asyncInputKey(name: string, inferenceId: string): string {
  return `${asyncInferenceFolder(name, "requests")}${inferenceId}.json`;
}

/**
 * Asynchronous Inference as the console sends it: the JSON body goes to `async/<endpoint>/in/<uuid>.json` in the
 * artifact bucket, then InvokeEndpointAsync names it as InputLocation (with the uuid as InferenceId); SageMaker
 * answers at once with the InferenceId and where the answer or the failure will be written.
 */
export async function invokeEndpointAsync(
  clients: { s3: S3Client; runtime: SageMakerRuntimeClient },
  bucket: string,
  name: string,
  body: unknown,
  inferenceId: string = crypto.randomUUID(),
): Promise<AsyncInvocation> {
  const key = asyncInputKey(name, inferenceId);
  const inputLocation = `s3://${bucket}/${key}`;
  await awsCall(`the request object ${inputLocation}`, () =>
    clients.s3.send(
      new PutObjectCommand({ Bucket: bucket, Key: key, Body: JSON.stringify(body), ContentType: "application/json" }),
    ),
  );
  const queued = await awsCall(`endpoint "${name}"`, () =>
    clients.runtime.send(
      new InvokeEndpointAsyncCommand({
        EndpointName: name,
        InputLocation: inputLocation,
        InferenceId: inferenceId,
        ContentType: "application/json",
        Accept: "application/json",
      }),
    ),
  );
  if (!queued.InferenceId || !queued.OutputLocation) {
    throw new AppError(
      "upstream",
      `InvokeEndpointAsync on "${name}" answered without an InferenceId or OutputLocation.`,
    );
  }
  return {
    inferenceId: queued.InferenceId,
    inputLocation,
    outputLocation: queued.OutputLocation,
    failureLocation: queued.FailureLocation ?? null,
  };
}

/** The object's body, or null while it does not exist yet. */
async function readIfPresent(s3: S3Client, uri: string) {
  try {
    const object = await s3.send(new GetObjectCommand(s3Object(uri)));
    const bytes = (await object.Body?.transformToByteArray()) ?? new Uint8Array();
    return decodeBody(bytes, object.ContentType);
  } catch (error) {
    if ((error as { name?: string }).name === "NoSuchKey") return null;
    throw error;
  }
}

/** The endpoint's AsyncInferenceConfig output paths, or null for a real-time endpoint. */
export async function asyncOutputPathsOf(sageMaker: SageMakerClient, name: string) {
  const what = `endpoint "${name}"`;
  const endpoint = await awsCall(what, () => sageMaker.send(new DescribeEndpointCommand({ EndpointName: name })));
  const config = await awsCall(what, () =>
    sageMaker.send(new DescribeEndpointConfigCommand({ EndpointConfigName: endpoint.EndpointConfigName })),
  );
  const output = config.AsyncInferenceConfig?.OutputConfig;
  return output?.S3OutputPath ? { outputPath: output.S3OutputPath, failurePath: output.S3FailurePath ?? null } : null;
}

/** The endpoint's AsyncInferenceConfig output paths; a clear 400 for a real-time endpoint, before anything is sent. */
export async function asyncOutputPaths(sageMaker: SageMakerClient, name: string) {
  const paths = await asyncOutputPathsOf(sageMaker, name);
  if (!paths) {
    throw new AppError(
      "bad_request",
      `Endpoint "${name}" is a real-time endpoint (no AsyncInferenceConfig): use POST /api/endpoints/${name}/invoke.`,
    );
  }
  return paths;
}

/**
 * Where SageMaker writes one request's outcome: `<S3OutputPath>/<id>.out` and `<S3FailurePath>/<id>-error.out`,
 * from the endpoint's own configuration (never from the browser, so only the endpoint's folders are read).
 */
export async function asyncResultLocations(sageMaker: SageMakerClient, name: string, inferenceId: string) {
  return resultLocationsUnder(await asyncOutputPaths(sageMaker, name), inferenceId);
}

export function resultLocationsUnder(
  { outputPath, failurePath }: { outputPath: string; failurePath: string | null },
  inferenceId: string,
) {
  const under = (prefix: string, file: string) => `${prefix.replace(/\/+$/, "")}/${file}`;
  return {
    outputLocation: under(outputPath, `${inferenceId}.out`),
    failureLocation: failurePath ? under(failurePath, `${inferenceId}-error.out`) : null,
  };
}

/** One look at a request's outcome: the answer, the failure, or still pending (queued or running). */
export async function asyncOutcome(
  s3: S3Client,
  locations: { outputLocation: string; failureLocation: string | null },
): Promise<AsyncOutcome> {
  const read = (uri: string) => awsCall(`the asynchronous result ${uri}`, () => readIfPresent(s3, uri));
  const answer = await read(locations.outputLocation);
  if (answer !== null) return { status: "completed", body: answer, ...locations };
  const failure = locations.failureLocation ? await read(locations.failureLocation) : null;
  if (failure !== null) return { status: "failed", body: failure, ...locations };
  return { status: "pending", body: null, ...locations };
}

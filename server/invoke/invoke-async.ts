import { PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import {
  DescribeEndpointCommand,
  DescribeEndpointConfigCommand,
  type SageMakerClient,
} from "@aws-sdk/client-sagemaker";
import { InvokeEndpointAsyncCommand, type SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import type { AsyncInvocation } from "../../contract/invoke/invoke-async.ts";
import { asyncInferenceFolder } from "../../contract/stack/console-contract.ts";
import { awsCall } from "../aws/errors.ts";
import { AppError } from "../http/app-error.ts";

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
 * Where SageMaker is seen to write a request's outcome, `<S3OutputPath>/<id>.out` and `<S3FailurePath>/<id>-error.out`;
 * AWS documents only the locations InvokeEndpointAsync returns, so this guess stands in only for a request whose
 * answer the console never heard (it stopped mid-call), to tell whether the request ran.
 */
export function expectedResultLocations(
  { outputPath, failurePath }: { outputPath: string; failurePath: string | null },
  inferenceId: string,
) {
  const under = (prefix: string, file: string) => `${prefix.replace(/\/+$/, "")}/${file}`;
  return {
    outputLocation: under(outputPath, `${inferenceId}.out`),
    failureLocation: failurePath ? under(failurePath, `${inferenceId}-error.out`) : null,
  };
}

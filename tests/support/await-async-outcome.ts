import type { S3Client } from "@aws-sdk/client-s3";
import type { SageMakerClient } from "@aws-sdk/client-sagemaker";
import { asyncOutcome } from "../../server/invoke/async-outcome.ts";
import { asyncOutputPaths, expectedResultLocations } from "../../server/invoke/invoke-async.ts";

/**
 * What the console's playground does: poll an asynchronous request until its answer or failure is there. Tests that
 * keep only the InferenceId find the locations where local SageMaker writes them (the names it returns).
 */
export async function awaitAsyncOutcome(
  clients: { s3: S3Client; sageMaker: SageMakerClient },
  endpoint: string,
  inferenceId: string,
  timeoutMs = 60_000,
) {
  const locations = expectedResultLocations(await asyncOutputPaths(clients.sageMaker, endpoint), inferenceId);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seen = await asyncOutcome(clients.s3, locations);
    if (seen.status !== "pending") return seen;
    if (Date.now() > deadline) throw new Error(`no outcome for ${inferenceId}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

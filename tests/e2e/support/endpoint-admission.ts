import fs from "node:fs";
import { InvokeEndpointCommand, SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import { readLocalAccessKey } from "@decision-console/local-aws";
import { expect } from "@playwright/test";
import { e2eSettings } from "./e2e-settings.ts";

/** The local SageMaker runtime as an application calls it, with the control plane's admin profile. */
function localRuntime(): SageMakerRuntimeClient {
  const { controlPlaneFile, controlPlaneDataDir } = e2eSettings();
  return new SageMakerRuntimeClient({
    region: "us-east-1",
    endpoint: fs.readFileSync(controlPlaneFile, "utf8"),
    credentials: readLocalAccessKey(controlPlaneDataDir, "admin"),
    maxAttempts: 1,
  });
}

/**
 * Waits until the endpoint answers `body` at the first try, one InvokeEndpoint at a time: its admission has room,
 * so no request of earlier work still holds it. Returns how many tries it took.
 */
export async function waitUntilAdmitted(endpoint: string, body: unknown, timeout = 120_000): Promise<number> {
  const runtime = localRuntime();
  let tries = 0;
  await expect
    .poll(
      async () => {
        tries++;
        return runtime
          .send(
            new InvokeEndpointCommand({
              EndpointName: endpoint,
              ContentType: "application/json",
              Body: JSON.stringify(body),
            }),
          )
          .then(
            () => "answered",
            (error: { name?: string; $metadata?: { httpStatusCode?: number } }) =>
              `${error.name ?? "error"} ${error.$metadata?.httpStatusCode ?? ""}`,
          );
      },
      { timeout, intervals: [1_000] },
    )
    .toBe("answered");
  return tries;
}

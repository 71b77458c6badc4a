import { DescribeEndpointCommand, type SageMakerClient } from "@aws-sdk/client-sagemaker";
import { awsCall } from "../aws/errors.ts";
import { AppError } from "../http/app-error.ts";

/**
 * The endpoint's name as SageMaker keeps it, or a 404 when no endpoint has it. SageMaker's CreateEndpoint reference:
 * "The name is case-insensitive in CreateEndpoint, but the case is preserved and must be matched in
 * InvokeEndpoint." So `Demo` and `demo` are one endpoint: what the console keeps per endpoint is keyed by, and what
 * it invokes is called by, the spelling DescribeEndpoint answers.
 */
export async function existingEndpointName(sageMaker: SageMakerClient, name: string): Promise<string> {
  try {
    const endpoint = await awsCall(`endpoint "${name}"`, () =>
      sageMaker.send(new DescribeEndpointCommand({ EndpointName: name })),
    );
    return endpoint.EndpointName ?? name;
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") {
      throw new AppError("not_found", `Endpoint "${name}" does not exist (endpoint names are compared ignoring case).`);
    }
    throw error;
  }
}

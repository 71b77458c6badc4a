import {
  DescribeEndpointCommand,
  DescribeEndpointConfigCommand,
  type DescribeEndpointConfigOutput,
  type DescribeEndpointOutput,
  DescribeModelCommand,
  type DescribeModelOutput,
  type SageMakerClient,
} from "@aws-sdk/client-sagemaker";
import { awsCall, toAwsAppError } from "../aws/errors.ts";
import type { EndpointSummaryCache } from "./summary-cache.ts";

/** An endpoint with the config and model it names; config or model is null when it was deleted behind our back. */
export interface EndpointResources {
  endpoint: DescribeEndpointOutput;
  config: DescribeEndpointConfigOutput | null;
  model: DescribeModelOutput | null;
}

async function orNullWhenMissing<T>(call: () => Promise<T>): Promise<T | null> {
  try {
    return await call();
  } catch (error) {
    const mapped = toAwsAppError(error);
    if (mapped.status === 404) return null;
    throw mapped;
  }
}

export async function loadEndpointResources(
  sageMaker: SageMakerClient,
  name: string,
  cache?: EndpointSummaryCache,
): Promise<EndpointResources> {
  const endpoint = await awsCall(`endpoint "${name}"`, () =>
    sageMaker.send(new DescribeEndpointCommand({ EndpointName: name })),
  );
  const configName = endpoint.EndpointConfigName;
  const known = cache?.definition(name, endpoint.CreationTime, configName);
  if (known) return { endpoint, ...known };
  const config = configName
    ? await orNullWhenMissing(() =>
        sageMaker.send(new DescribeEndpointConfigCommand({ EndpointConfigName: configName })),
      )
    : null;
  const modelName = config?.ProductionVariants?.[0]?.ModelName;
  const model = modelName
    ? await orNullWhenMissing(() => sageMaker.send(new DescribeModelCommand({ ModelName: modelName })))
    : null;
  if (config && model) cache?.storeDefinition(name, endpoint.CreationTime, configName, { config, model });
  return { endpoint, config, model };
}

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
import { type ModelRecords, modelTags, recordsOf } from "./model-records.ts";
import type { EndpointSummaryCache } from "./summary-cache.ts";

/**
 * An endpoint with the config and model it names (config or model is null when it was deleted behind our back),
 * and what the console recorded about the model.
 */
export interface EndpointResources {
  endpoint: DescribeEndpointOutput;
  config: DescribeEndpointConfigOutput | null;
  model: DescribeModelOutput | null;
  records: ModelRecords;
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
  const records = await modelRecordsOf(sageMaker, model);
  if (config && model) cache?.storeDefinition(name, endpoint.CreationTime, configName, { config, model, records });
  return { endpoint, config, model, records };
}

/** A described model's records: its tags (ListTags), or what an earlier console left in its environment. */
export async function modelRecordsOf(
  sageMaker: SageMakerClient,
  model: DescribeModelOutput | null,
): Promise<ModelRecords> {
  if (!model) return {};
  const container = model.PrimaryContainer ?? model.Containers?.[0];
  const arn = model.ModelArn;
  const tags = arn ? ((await orNullWhenMissing(() => modelTags(sageMaker, arn))) ?? {}) : {};
  return recordsOf(tags, container?.Environment ?? {});
}

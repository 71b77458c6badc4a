import {
  DeleteEndpointConfigCommand,
  DeleteModelCommand,
  DescribeEndpointConfigCommand,
  DescribeModelCommand,
  type SageMakerClient,
} from "@aws-sdk/client-sagemaker";
import { bestEffort } from "./deploy.ts";
import { type EndpointResources, modelRecordsOf } from "./resources.ts";

/** How many configurations before the serving one an endpoint keeps for a roll back. */
export const KEPT_PREVIOUS_CONFIGS = 2;

/** The rule, as the endpoint page states it. */
export const configHistoryRule = `The ${KEPT_PREVIOUS_CONFIGS} configurations before the serving one are kept for a roll back; each update deletes the configuration (and its model) before those.`;

/** The endpoint's own configurations: its name, or `<endpoint>-<8 hex>` as updates derive them. */
export function isUpdateTarget(endpoint: string, config: string): boolean {
  return (
    config === endpoint || new RegExp(`^${endpoint.slice(0, 54).replace(/[-]/g, "\\-")}-[0-9a-f]{8}$`).test(config)
  );
}

async function modelOfConfig(sageMaker: SageMakerClient, config: string) {
  try {
    const described = await sageMaker.send(new DescribeEndpointConfigCommand({ EndpointConfigName: config }));
    const modelName = described.ProductionVariants?.[0]?.ModelName;
    if (!modelName) return null;
    const model = await sageMaker.send(new DescribeModelCommand({ ModelName: modelName }));
    return { modelName, records: await modelRecordsOf(sageMaker, model) };
  } catch {
    return null;
  }
}

/**
 * After an update from `resources` to `target` was accepted: walks the history back from the serving configuration
 * and deletes the first one beyond KEPT_PREVIOUS_CONFIGS (its endpoint configuration and model), never the target,
 * the serving one or one of the endpoint's kept ones. A failure to delete is logged; the update stands.
 */
export async function collectOldConfigs(
  sageMaker: SageMakerClient,
  resources: EndpointResources,
  target: string,
): Promise<void> {
  const endpoint = resources.endpoint.EndpointName ?? "";
  const kept = new Set([target, resources.endpoint.EndpointConfigName ?? ""]);
  // The configuration each model's update replaced (none for a model the console deployed directly).
  let previous = resources.records.previousConfig;
  for (let depth = 1; previous && depth < KEPT_PREVIOUS_CONFIGS; depth++) {
    kept.add(previous);
    previous = (await modelOfConfig(sageMaker, previous))?.records.previousConfig;
  }
  if (!previous || kept.has(previous) || !isUpdateTarget(endpoint, previous)) return;
  const old = await modelOfConfig(sageMaker, previous);
  const config = previous;
  await bestEffort(() => sageMaker.send(new DeleteEndpointConfigCommand({ EndpointConfigName: config })));
  if (old && !kept.has(old.modelName)) {
    await bestEffort(() => sageMaker.send(new DeleteModelCommand({ ModelName: old.modelName })));
  }
}

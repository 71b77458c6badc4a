import type { InstancePool } from "../sagemaker-store.ts";

/**
 * The endpoint-config tag that marks instance types as short of capacity, so the pool fallback can be exercised
 * locally: instance types separated by spaces, e.g. `ml.g6e.xlarge ml.g6.2xlarge` (SageMaker refuses commas in tag
 * values; the environment variable takes commas too).
 */
export const SHORT_CAPACITY_TAG = "local:short-capacity";

/** The same for every endpoint of a control plane (e.g. for browser tests that deploy through the console). */
export const SHORT_CAPACITY_ENV = "LOCAL_AWS_SHORT_CAPACITY";

/** On a machine without a GPU: `0` fails every CUDA request, `1` runs even the cuda image on the CPU (see LocalCapacity). */
export const EMULATE_GPU_ENV = "LOCAL_AWS_EMULATE_GPU";

export function shortCapacityTypes(tagValue: string | undefined, envValue: string | undefined): Set<string> {
  return new Set(
    [tagValue ?? "", envValue ?? ""]
      .flatMap((value) => value.split(/[\s,]+/))
      .map((type) => type.trim())
      .filter((type) => type !== ""),
  );
}

/** The first pool, in priority order, whose instance type has capacity; undefined when none has. */
export function choosePool(pools: InstancePool[], short: Set<string>): InstancePool | undefined {
  return [...pools].sort((a, b) => a.Priority - b.Priority).find((pool) => !short.has(pool.InstanceType));
}

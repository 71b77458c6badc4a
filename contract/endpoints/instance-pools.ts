import { z } from "zod";

/** ProductionVariant.InstancePools in the SageMaker service model: a list of 1 to 5 pools. */
export const maxInstancePools = 5;

/**
 * Instance pools, highest priority first: 1 to 5 of them, each instance type once (a type twice would give one
 * type two priorities). `instanceTypeOf` reads a pool's type: a deployment's pools are objects, an update's strings.
 */
export function instancePoolsSchema<Pool extends z.ZodType>(
  pool: Pool,
  instanceTypeOf: (pool: z.output<Pool>) => string,
) {
  return z
    .array(pool)
    .min(1, "give at least one instance pool")
    .max(maxInstancePools, `SageMaker accepts at most ${maxInstancePools} instance pools`)
    .refine((pools) => new Set(pools.map(instanceTypeOf)).size === pools.length, "instance types must be unique");
}

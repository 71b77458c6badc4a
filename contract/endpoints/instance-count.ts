import { z } from "zod";

/** The most instances the console starts for one endpoint variant or transform job. */
export const MAX_INSTANCE_COUNT = 20;

/** How many instances an endpoint or a transform job runs on, with the rule in plain words. */
export const instanceCountSchema = z
  .number({ error: "Enter a number of instances." })
  .int("A whole number of instances.")
  .min(1, "At least 1 instance.")
  .max(MAX_INSTANCE_COUNT, `At most ${MAX_INSTANCE_COUNT} instances.`);

import { sageMakerNameSchema } from "../endpoints/resource-name-schema.ts";

/** SageMaker's TransformJobName (its API reference and service model: this pattern, 1-63 characters). */
export const transformJobNamePattern = /^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$/;
export const MAX_TRANSFORM_JOB_NAME_LENGTH = 63;

/** A transform job's name: its own rule, not an endpoint's, with one message for each problem. */
export const transformJobNameSchema = sageMakerNameSchema(transformJobNamePattern, MAX_TRANSFORM_JOB_NAME_LENGTH);

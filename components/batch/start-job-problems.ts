import { MAX_TRANSFORM_JOB_NAME_LENGTH } from "@/contract/batch/transform-job-name.ts";
import { type StartTransformJobInput, startTransformJobSchema } from "@/contract/batch/transform-jobs.ts";
import { namePrefixProblem } from "@/contract/endpoints/resource-name.ts";
import { addProblem, type FieldsByPath, type FormProblems, schemaProblems } from "../forms/schema-problems.ts";

export type StartJobField =
  | "name"
  | "inputS3Uri"
  | "instanceType"
  | "instanceCount"
  | "maxConcurrentTransforms"
  | "maxPayloadInMB"
  | "invocationsTimeoutSeconds";

export const startJobFieldLabels: Readonly<Record<StartJobField, string>> = {
  name: "Job name",
  inputS3Uri: "Input S3 prefix",
  instanceType: "Instance type",
  instanceCount: "Instance count",
  maxConcurrentTransforms: "Max concurrent transforms",
  maxPayloadInMB: "Max payload (MB)",
  invocationsTimeoutSeconds: "Invocation timeout (s)",
};

const fieldsByPath: FieldsByPath<StartJobField> = {
  name: "name",
  inputS3Uri: "inputS3Uri",
  instanceType: "instanceType",
  instanceCount: "instanceCount",
  maxConcurrentTransforms: "maxConcurrentTransforms",
  maxPayloadInMB: "maxPayloadInMB",
  invocationsTimeoutSeconds: "invocationsTimeoutSeconds",
};

/**
 * What startTransformJobSchema, the server's own check, finds in the request the start form stands for, at each
 * field, and a job name without the prefix the console's IAM policy allows (`namePrefix`; null: any name).
 */
export function startJobProblems(
  request: StartTransformJobInput,
  namePrefix: string | null,
): FormProblems<StartJobField> {
  const problems = schemaProblems(startTransformJobSchema, request, fieldsByPath, startJobFieldLabels);
  const prefix = problems.fields.name
    ? null
    : namePrefixProblem(request.name, namePrefix, MAX_TRANSFORM_JOB_NAME_LENGTH);
  if (prefix) addProblem(problems, prefix, { field: "name", label: startJobFieldLabels.name });
  return problems;
}

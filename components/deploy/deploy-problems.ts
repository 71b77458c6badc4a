import { deployRequestSchema } from "@/contract/endpoints/deploy.ts";
import { MAX_RESOURCE_NAME_LENGTH, namePrefixProblem } from "@/contract/endpoints/resource-name.ts";
import { addProblem, type FieldsByPath, type FormProblems, schemaProblems } from "../forms/schema-problems.ts";
import { type DeployForm, deployRequestFrom, type LimitKey, limitFields } from "./deploy-request.ts";

export type DeployField =
  | "name"
  | "instanceCount"
  | "imageUri"
  | "modelDataUrl"
  | "modelSha256"
  | "cpuInstanceType"
  | "threads"
  | "gpuPools"
  | "gpuLayers"
  | "provisioningTimeoutSeconds"
  | "maxConcurrentInvocations"
  | "successTopic"
  | "errorTopic"
  | `limits.${LimitKey}`
  | "temperature"
  | "capturePercent";

/** The form's field labels, as the summary names them. */
export const deployFieldLabels: Readonly<Record<DeployField, string>> = {
  name: "Endpoint name",
  instanceCount: "Instance count",
  imageUri: "Image URI pinned by digest",
  modelDataUrl: "Model S3 URI",
  modelSha256: "Model sha256",
  cpuInstanceType: "CPU instance type",
  threads: "Threads",
  gpuPools: "GPU instance pool",
  gpuLayers: "GPU layers",
  provisioningTimeoutSeconds: "Provisioning timeout (s)",
  maxConcurrentInvocations: "Concurrent requests per instance",
  successTopic: "Success topic",
  errorTopic: "Error topic",
  ...(Object.fromEntries(limitFields.map((field) => [`limits.${field.key}`, field.label])) as Record<
    `limits.${LimitKey}`,
    string
  >),
  temperature: "Temperature",
  capturePercent: "Data capture (% of invocations)",
};

/** Where each part of deployRequestSchema is typed in the form. */
const fieldsByPath: FieldsByPath<DeployField> = {
  name: "name",
  instanceCount: "instanceCount",
  imageUri: "imageUri",
  modelDataUrl: "modelDataUrl",
  modelSha256: "modelSha256",
  "compute.instanceType": "cpuInstanceType",
  "compute.threads": "threads",
  "compute.pools": "gpuPools",
  "compute.gpuLayers": "gpuLayers",
  "compute.provisioningTimeoutSeconds": "provisioningTimeoutSeconds",
  "invocation.maxConcurrentInvocationsPerInstance": "maxConcurrentInvocations",
  "invocation.successTopic": "successTopic",
  "invocation.errorTopic": "errorTopic",
  ...Object.fromEntries(limitFields.map((field) => [`limits.${field.key}`, `limits.${field.key}` as const])),
  temperature: "temperature",
  "dataCapture.samplingPercentage": "capturePercent",
};

/**
 * What deployRequestSchema, the server's own check, finds in the request the form stands for, at each field, and
 * a name without the prefix the console's IAM policy allows (`namePrefix`, from GET /api/settings; null: any).
 */
export function formProblems(form: DeployForm, namePrefix: string | null = null): FormProblems<DeployField> {
  const request = deployRequestFrom(form);
  const problems = schemaProblems(deployRequestSchema, request, fieldsByPath, deployFieldLabels);
  const prefix = problems.fields.name ? null : namePrefixProblem(request.name, namePrefix, MAX_RESOURCE_NAME_LENGTH);
  if (prefix) addProblem(problems, prefix, { field: "name", label: deployFieldLabels.name });
  return problems;
}

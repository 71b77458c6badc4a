import { defaultParallel } from "@decision-console/adapter/contract/parallel-default.ts";
import { type SemifLimit, semifDefaults, semifVariables } from "@decision-console/adapter/contract/semif-settings.ts";
import type { DeployRequestInput } from "@/contract/endpoints/deploy.ts";
import type { ApiMode, EndpointDetail } from "@/contract/endpoints/endpoint.ts";
import type { ModelVersion } from "@/contract/models/model-registry.ts";

/** The deploy form's state: strings as typed, turned into a request only at review time. */
export type DeployForm = {
  name: string;
  /** An Approved Model Registry version; its image and artifact fill imageUri, modelDataUrl and modelSha256. */
  modelVersionArn: string;
  apiMode: ApiMode;
  imageUri: string;
  modelDataUrl: string;
  compression: "Gzip" | "None";
  modelSha256: string;
  /** The GGUF's size from the chosen model build; empty when the model was typed in. */
  modelBytes: string;
  computeKind: "cpu" | "gpu-pool";
  cpuInstanceType: string;
  threads: string;
  gpuPools: string[];
  gpuLayers: string;
  provisioningTimeoutSeconds: string;
  instanceCount: string;
  limits: Record<LimitKey, string>;
  /** SEMIF_TEMPERATURE, e.g. the one an evaluation fitted; empty keeps the adapter's default of 1. */
  temperature: string;
  invocationMode: "real-time" | "asynchronous";
  /** MaxConcurrentInvocationsPerInstance; empty: the adapter's ADAPTER_PARALLEL. */
  maxConcurrentInvocations: string;
  successTopic: string;
  errorTopic: string;
  /** Data capture's sampling percentage; empty: no capture. */
  capturePercent: string;
};

export type DeployPrefill = {
  image?: string;
  model?: string;
  sha256?: string;
  bytes?: string;
  temperature?: string;
  /** A model version ARN (`?version=`), picked once the Approved versions are listed. */
  version?: string;
};

const limitKeys = [
  "maxTokens",
  "maxRequestTokens",
  "maxSharedDecisions",
  "maxBodyBytes",
  "maxInFlight",
] as const satisfies readonly SemifLimit[];
export type LimitKey = (typeof limitKeys)[number];

/** What each limit bounds, in the words the form shows (its SEMIF_* variable is the hint). */
const limitLabels: Record<LimitKey, string> = {
  maxTokens: "Tokens per decision",
  maxRequestTokens: "Tokens per request",
  maxSharedDecisions: "Decisions per shared-state request",
  maxBodyBytes: "Request body (bytes)",
  maxInFlight: "Requests scored at once",
};

export const limitFields = limitKeys.map((key) => ({
  key,
  label: limitLabels[key],
  env: semifVariables[key],
  defaultValue: semifDefaults[key],
}));

/** The AWS sample's GPU pool, in its priority order. */
export const samplePool = ["ml.g6e.xlarge", "ml.g6.2xlarge", "ml.g5.2xlarge", "ml.g4dn.2xlarge"];

export function initialDeployForm(prefill: DeployPrefill): DeployForm {
  return {
    name: "",
    modelVersionArn: "",
    apiMode: "decision",
    imageUri: prefill.image ?? "",
    modelDataUrl: prefill.model ?? "",
    compression: prefill.model && !prefill.model.endsWith(".tar.gz") ? "None" : "Gzip",
    modelSha256: prefill.sha256 ?? "",
    modelBytes: prefill.model && /^\d+$/.test(prefill.bytes ?? "") ? (prefill.bytes as string) : "",
    computeKind: "cpu",
    cpuInstanceType: "ml.c6i.2xlarge",
    threads: "8",
    gpuPools: [...samplePool],
    gpuLayers: "max",
    provisioningTimeoutSeconds: "900",
    instanceCount: "1",
    limits: { maxTokens: "", maxRequestTokens: "", maxSharedDecisions: "", maxBodyBytes: "", maxInFlight: "" },
    temperature: prefill.temperature ?? "",
    invocationMode: "real-time",
    maxConcurrentInvocations: "",
    successTopic: "",
    errorTopic: "",
    capturePercent: "",
  };
}

/**
 * A new deployment of what `endpoint` runs (image, model, compute, limits), e.g. to try the temperature an
 * evaluation fitted; the name is left for the operator, since it names new SageMaker resources.
 */
export function deployFormFromEndpoint(endpoint: EndpointDetail, temperature: string | undefined): DeployForm {
  const base = initialDeployForm({});
  const variant = endpoint.variants[0];
  const pools = variant?.pools ?? [];
  const limits = { ...base.limits };
  for (const field of limitFields) limits[field.key] = endpoint.settings.limits[field.env] ?? "";
  return {
    ...base,
    apiMode: endpoint.apiMode,
    imageUri: endpoint.model.imageUri ?? "",
    modelDataUrl: endpoint.model.modelDataUrl ?? "",
    compression: endpoint.model.compression ?? base.compression,
    modelSha256: endpoint.model.modelSha256 ?? "",
    computeKind: pools.length > 0 ? "gpu-pool" : "cpu",
    cpuInstanceType: variant?.instanceType ?? base.cpuInstanceType,
    threads: endpoint.settings.threads === null ? base.threads : String(endpoint.settings.threads),
    gpuPools: pools.length > 0 ? pools.map((pool) => pool.instanceType) : base.gpuPools,
    gpuLayers: endpoint.settings.gpuLayers === null ? base.gpuLayers : String(endpoint.settings.gpuLayers),
    provisioningTimeoutSeconds: String(variant?.provisioningTimeoutSeconds ?? base.provisioningTimeoutSeconds),
    instanceCount: String(endpoint.instanceCount ?? 1),
    limits,
    temperature: temperature ?? (endpoint.settings.temperature === null ? "" : String(endpoint.settings.temperature)),
    invocationMode: endpoint.asyncInference ? "asynchronous" : "real-time",
    maxConcurrentInvocations: String(endpoint.asyncInference?.maxConcurrentInvocationsPerInstance ?? ""),
    successTopic: endpoint.asyncInference?.successTopic ?? "",
    errorTopic: endpoint.asyncInference?.errorTopic ?? "",
    capturePercent: endpoint.dataCapture?.enabled ? String(endpoint.dataCapture.samplingPercentage ?? "") : "",
  };
}

function optionalInt(value: string): number | undefined {
  return value.trim() === "" ? undefined : Number(value);
}

export function deployRequestFrom(form: DeployForm): DeployRequestInput {
  const limits = Object.fromEntries(
    limitFields
      .map(({ key }) => [key, optionalInt(form.limits[key])] as const)
      .filter(([, value]) => value !== undefined),
  );
  return {
    name: form.name.trim(),
    ...(form.modelVersionArn ? { modelVersionArn: form.modelVersionArn } : {}),
    apiMode: form.apiMode,
    imageUri: form.imageUri.trim(),
    modelDataUrl: form.modelDataUrl.trim(),
    compression: form.compression,
    ...(form.modelSha256.trim() ? { modelSha256: form.modelSha256.trim() } : {}),
    ...(form.modelBytes ? { modelBytes: Number(form.modelBytes) } : {}),
    compute:
      form.computeKind === "cpu"
        ? { kind: "cpu", instanceType: form.cpuInstanceType, threads: Number(form.threads) }
        : {
            kind: "gpu-pool",
            pools: form.gpuPools.map((instanceType) => ({ instanceType })),
            provisioningTimeoutSeconds: Number(form.provisioningTimeoutSeconds),
            gpuLayers: form.gpuLayers === "max" ? "max" : Number(form.gpuLayers),
          },
    instanceCount: Number(form.instanceCount),
    limits,
    ...(form.temperature.trim() ? { temperature: Number(form.temperature) } : {}),
    ...(form.capturePercent.trim() ? { dataCapture: { samplingPercentage: Number(form.capturePercent) } } : {}),
    invocation:
      form.invocationMode === "real-time"
        ? { mode: "real-time" }
        : {
            mode: "asynchronous",
            ...(form.maxConcurrentInvocations.trim()
              ? { maxConcurrentInvocationsPerInstance: Number(form.maxConcurrentInvocations) }
              : {}),
            ...(form.successTopic.trim() ? { successTopic: form.successTopic.trim() } : {}),
            ...(form.errorTopic.trim() ? { errorTopic: form.errorTopic.trim() } : {}),
          },
  };
}

/** MaxConcurrentInvocationsPerInstance when none is given: the adapter's ADAPTER_PARALLEL for the compute kind. */
export function defaultConcurrency(computeKind: DeployForm["computeKind"]): number {
  return defaultParallel(computeKind === "cpu" ? "cpu" : "cuda");
}

/**
 * What the review step says about the invocation mode: what the endpoint costs while nothing is sent, and what
 * latency a caller sees.
 */
export function invocationCostAndLatency(
  request: DeployRequestInput,
  hourlyPrice: string,
): { idle: string; latency: string } {
  if (request.invocation?.mode !== "asynchronous") {
    return {
      idle: `${hourlyPrice} around the clock: real-time endpoints keep at least 1 instance.`,
      latency:
        "The caller waits for the answer: model time only; a busy instance answers 503, which the console retries.",
    };
  }
  return {
    idle: `${hourlyPrice} while its instances run; an asynchronous endpoint may scale to 0 instances when its queue is empty, and then costs nothing but S3 storage (turn on "Scale to zero when idle" on its autoscaling card once it is InService).`,
    latency:
      "InvokeEndpointAsync answers at once; the decision lands in S3 after the time in the queue plus the model time, " +
      "and after a scale to zero also a cold start (instance provisioning, model download and load: minutes on SageMaker).",
  };
}

/** The form with a registry version picked: its image and artifact (the version names them; the server checks). */
export function withModelVersion(form: DeployForm, version: ModelVersion | null): DeployForm {
  if (!version) return { ...form, modelVersionArn: "" };
  return {
    ...form,
    modelVersionArn: version.arn,
    imageUri: version.imageUri ?? "",
    modelDataUrl: version.modelDataUrl ?? "",
    compression: version.compression ?? form.compression,
    modelSha256: version.modelSha256 ?? "",
    modelBytes: version.modelBytes === null ? "" : String(version.modelBytes),
  };
}

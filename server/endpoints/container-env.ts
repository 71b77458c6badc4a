import { semifVariables } from "@decision-console/adapter/contract";
import type { AdapterLimits, DeployRequest } from "../../contract/endpoints/deploy.ts";
import type { ApiMode, ContainerSettings } from "../../contract/endpoints/endpoint.ts";
import { AppError } from "../http/app-error.ts";
import type { ModelRecords } from "./model-records.ts";

/**
 * The API mode mark models created by earlier consoles carry. The console no longer sets it: a container is given
 * only variables its image documents (SageMaker passes every variable to the container, and local mode flagged
 * this one "not passed to the container" in every endpoint and batch log). The mode is what the container runs:
 * the llama.cpp DLC (its SM_LLAMA_CPP_* variables, its image) serves chat, the adapter decisions.
 */
export const apiModeVariable = "DECISION_CONSOLE_API_MODE";
/** The adapter hashes its GGUF at start and refuses to start unless it matches (adapter/README.md). */
export const adapterModelSha256Variable = "ADAPTER_MODEL_SHA256";

/** llama-server's "all layers" value, as the DLC's SM_LLAMA_CPP_N_GPU_LAYERS passes it through. */
const allGpuLayers = 999;

/**
 * What a model's container is configured from: a deploy request, or a batch job's build output (a CPU model whose
 * threads the adapter takes from the instance).
 */
export type ContainerRequest = Pick<
  DeployRequest,
  "apiMode" | "modelSha256" | "limits" | "temperature" | "parallel"
> & {
  compute: Exclude<DeployRequest["compute"], { kind: "cpu" }> | { kind: "cpu"; threads?: number };
};

/**
 * The container environment for a deploy request. The adapter reads ADAPTER_* and SEMIF_* (DESIGN §3, §4); the
 * llama.cpp DLC turns SM_LLAMA_CPP_FOO_BAR into --foo-bar (DESIGN §11). Nothing else: what the console records about
 * a model (a chat model's sha256, the build a batch model runs) goes into its tags (model-records.ts).
 */
export function containerEnvironment(request: ContainerRequest): Record<string, string> {
  const env: Record<string, string> = {};
  const { compute } = request;
  if (request.apiMode === "chat") {
    env.SM_LLAMA_CPP_CTX_SIZE = String(request.limits.maxTokens ?? 4096);
    if (compute.threads !== undefined) env.SM_LLAMA_CPP_THREADS = String(compute.threads);
    if (compute.kind === "gpu-pool") {
      env.SM_LLAMA_CPP_N_GPU_LAYERS = String(compute.gpuLayers === "max" ? allGpuLayers : compute.gpuLayers);
    }
    return env;
  }
  if (compute.kind === "gpu-pool") {
    if (compute.gpuLayers !== "max") {
      throw new AppError(
        "bad_request",
        'compute.gpuLayers: the decision adapter on CUDA offloads every layer and refuses partial offload; use "max"',
      );
    }
    env.ADAPTER_GPU = "cuda";
  }
  if (request.modelSha256) env[adapterModelSha256Variable] = request.modelSha256;
  if (compute.threads !== undefined) env.ADAPTER_THREADS = String(compute.threads);
  if (request.parallel !== undefined) env.ADAPTER_PARALLEL = String(request.parallel);
  if (request.temperature !== undefined) env[semifVariables.temperature] = String(request.temperature);
  for (const [key, value] of Object.entries(request.limits) as [keyof AdapterLimits, number | undefined][]) {
    if (value !== undefined) env[semifVariables[key]] = String(value);
  }
  return env;
}

/** The model's sha256 pin: the one the adapter enforces, else the one recorded for a container that cannot. */
export function modelSha256Of(env: Record<string, string>, records: ModelRecords): string | null {
  return env[adapterModelSha256Variable] ?? records.modelSha256 ?? null;
}

function integerOrNull(value: string | undefined): number | null {
  if (value === undefined || value === "") return null;
  const n = Number(value);
  return Number.isInteger(n) ? n : null;
}

/**
 * API mode of a model, recognised from the llama.cpp DLC's variables (every chat model the console creates has
 * SM_LLAMA_CPP_CTX_SIZE) or a text-generation image; an earlier console's mark is still read.
 */
export function apiModeOf(env: Record<string, string>, image: string | null): ApiMode {
  const marked = env[apiModeVariable];
  if (marked === "decision" || marked === "chat") return marked;
  if (Object.keys(env).some((key) => key.startsWith("SM_LLAMA_CPP_"))) return "chat";
  if (image && /llama-cpp/.test(image)) return "chat";
  return "decision";
}

/** Reads the settings a detail page shows back from the model's environment. */
export function settingsOf(env: Record<string, string>): ContainerSettings {
  const limits: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (key.startsWith("SEMIF_") && key !== semifVariables.temperature) limits[key] = value;
  }
  const llamaLayers = integerOrNull(env.SM_LLAMA_CPP_N_GPU_LAYERS);
  const gpuLayers =
    env.ADAPTER_GPU === "cuda"
      ? "max"
      : llamaLayers === null
        ? null
        : llamaLayers >= allGpuLayers
          ? "max"
          : llamaLayers;
  const setTemperature = env[semifVariables.temperature];
  const temperature = setTemperature === undefined ? null : Number(setTemperature);
  return {
    threads: integerOrNull(env.ADAPTER_THREADS ?? env.SM_LLAMA_CPP_THREADS),
    gpuLayers,
    parallel: integerOrNull(env.ADAPTER_PARALLEL),
    temperature: Number.isFinite(temperature) ? temperature : null,
    limits,
  };
}

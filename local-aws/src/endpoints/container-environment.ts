import { containedPath } from "../contained-path.ts";
import type { ContainerContract } from "../stack-fixture.ts";

/** The prefixes of the variables the adapter documents (adapter/README.md); nothing else reaches a local instance. */
export const DOCUMENTED_PREFIXES = ["ADAPTER_", "SEMIF_", "SM_", "SAGEMAKER_"] as const;

/** Where SageMaker lays out the model data in the container, and where container paths in variables point. */
export const CONTAINER_MODEL_DIR = "/opt/ml/model";

/** Variables local mode sets itself for each instance; a model's own value is replaced. */
const SET_BY_LOCAL_MODE = ["SM_MODEL_DIR", "SAGEMAKER_BIND_TO_PORT", "SM_LLAMA_CPP_PORT", "ADAPTER_HOST"] as const;

/** Variables that name a place in the container's model directory: the adapter's model file, the DLC's file and directory. */
const CONTAINER_PATHS = ["ADAPTER_MODEL_PATH", "SM_LLAMA_CPP_MODEL", "SM_LLAMA_CPP_MODEL_DIR"] as const;

export interface ScreenedEnvironment {
  /** The model's variables the adapter documents, container paths translated to the local model directory. */
  environment: Record<string, string>;
  /** Names not passed: undocumented, or set by local mode for every instance. */
  dropped: string[];
  replaced: string[];
}

/** Why a model's environment cannot run locally (the endpoint fails with this reason). */
export class ContainerEnvironmentError extends Error {}

/**
 * Screens a CreateModel `Environment` for a local instance. AWS accepts any variable and the container sees it;
 * locally the container is a process of this machine, so only the adapter's documented variables pass, and a
 * model path must name a place under `/opt/ml/model` (mapped to the local model directory).
 */
export function screenEnvironment(model: Record<string, string>, modelDir: string): ScreenedEnvironment {
  const environment: Record<string, string> = {};
  const dropped: string[] = [];
  const replaced: string[] = [];
  for (const [name, value] of Object.entries(model)) {
    if (!DOCUMENTED_PREFIXES.some((prefix) => name.startsWith(prefix))) dropped.push(name);
    else if ((SET_BY_LOCAL_MODE as readonly string[]).includes(name)) replaced.push(name);
    else environment[name] = value;
  }
  for (const name of CONTAINER_PATHS) {
    const value = environment[name];
    if (value) environment[name] = localModelPath(name, value, modelDir);
  }
  return { environment, dropped: dropped.sort(), replaced: replaced.sort() };
}

function localModelPath(name: string, containerPath: string, modelDir: string): string {
  if (containerPath === CONTAINER_MODEL_DIR && name.endsWith("_DIR")) return modelDir;
  const prefix = `${CONTAINER_MODEL_DIR}/`;
  const relative = containerPath.startsWith(prefix) ? containerPath.slice(prefix.length) : undefined;
  try {
    if (relative === undefined) throw new Error("outside");
    return containedPath(modelDir, ...relative.split("/"));
  } catch {
    throw new ContainerEnvironmentError(
      `${name}=${containerPath} does not name a ${name.endsWith("_DIR") ? "directory" : "file"} under ${CONTAINER_MODEL_DIR}, the only place the model data is in the container.`,
    );
  }
}

/**
 * The whole environment of one local instance: what the image sets (`infra/docker/Dockerfile.*`; the DLC stand-in
 * the same), local mode's default thread count in the image's own variable, the screened model variables, and what
 * SageMaker and local mode set for each instance: the port, in the variable the image's server reads (the adapter
 * SAGEMAKER_BIND_TO_PORT, the DLC's entrypoint SM_LLAMA_CPP_PORT), and the adapter's loopback host.
 */
export function instanceEnvironment(
  screened: Record<string, string>,
  local: {
    contract: ContainerContract;
    modelDir: string;
    port: number;
    home: string;
    defaultThreads: string;
  },
): NodeJS.ProcessEnv {
  const adapter = local.contract === "adapter";
  const port = String(local.port);
  return {
    NODE_ENV: "production",
    NODE_LLAMA_CPP_SKIP_DOWNLOAD: "true",
    [adapter ? "ADAPTER_THREADS" : "SM_LLAMA_CPP_THREADS"]: local.defaultThreads,
    ...screened,
    SM_MODEL_DIR: local.modelDir,
    SAGEMAKER_BIND_TO_PORT: port,
    ...(adapter ? { ADAPTER_HOST: "127.0.0.1" } : { SM_LLAMA_CPP_PORT: port }),
    HOME: local.home,
  };
}

import { containedPath } from "../contained-path.ts";

/** The prefixes of the variables the adapter documents (adapter/README.md); nothing else reaches a local instance. */
export const DOCUMENTED_PREFIXES = ["ADAPTER_", "SEMIF_", "SM_", "SAGEMAKER_"] as const;

/** Where SageMaker lays out the model data in the container, and where container paths in variables point. */
export const CONTAINER_MODEL_DIR = "/opt/ml/model";

/** Variables local mode sets itself for each instance; a model's own value is replaced. */
const SET_BY_LOCAL_MODE = ["SM_MODEL_DIR", "SAGEMAKER_BIND_TO_PORT", "ADAPTER_HOST"] as const;

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
 * model path must name a file under `/opt/ml/model` (mapped to the local model directory).
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
  const modelPath = environment.ADAPTER_MODEL_PATH;
  if (modelPath) environment.ADAPTER_MODEL_PATH = localModelPath(modelPath, modelDir);
  return { environment, dropped: dropped.sort(), replaced: replaced.sort() };
}

function localModelPath(containerPath: string, modelDir: string): string {
  const prefix = `${CONTAINER_MODEL_DIR}/`;
  const relative = containerPath.startsWith(prefix) ? containerPath.slice(prefix.length) : undefined;
  try {
    if (relative === undefined) throw new Error("outside");
    return containedPath(modelDir, ...relative.split("/"));
  } catch {
    throw new ContainerEnvironmentError(
      `ADAPTER_MODEL_PATH=${containerPath} does not name a file under ${CONTAINER_MODEL_DIR}, the only place the model data is in the container.`,
    );
  }
}

/**
 * The whole environment of one local instance: what the adapter image sets (`infra/docker/Dockerfile.*`), the
 * screened model variables, and what SageMaker and local mode set for each instance.
 */
export function instanceEnvironment(
  screened: Record<string, string>,
  local: { modelDir: string; port: number; home: string; defaultThreads: string },
): NodeJS.ProcessEnv {
  return {
    NODE_ENV: "production",
    NODE_LLAMA_CPP_SKIP_DOWNLOAD: "true",
    ADAPTER_THREADS: local.defaultThreads,
    ...screened,
    SM_MODEL_DIR: local.modelDir,
    SAGEMAKER_BIND_TO_PORT: String(local.port),
    ADAPTER_HOST: "127.0.0.1",
    HOME: local.home,
  };
}

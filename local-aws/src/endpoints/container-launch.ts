import os from "node:os";
import type { ImageRegistry, LocalImage } from "../image-registry.ts";
import type { ObjectStore } from "../object-store.ts";
import type { ModelDoc } from "../sagemaker-store.ts";
import type { ContainerContract, InstanceProgram } from "../stack-fixture.ts";
import { DEFAULT_REGION } from "../wire/request.ts";
import { ContainerEnvironmentError, DOCUMENTED_PREFIXES, screenEnvironment } from "./container-environment.ts";
import { hasNvidiaGpu } from "./gpu.ts";
import { EMULATE_GPU_ENV } from "./instance-pools.ts";
import { layOutModel } from "./model-layout.ts";

/** Why provisioning stopped: becomes the endpoint's or transform job's FailureReason verbatim. */
export class ProvisioningError extends Error {}

export type GpuEmulation = "off" | "cpu-image" | "all";

/** How this machine stands in for SageMaker's instances. */
export interface LocalCapacity {
  /** Instance types treated as short of capacity for every endpoint (besides the config's tag). */
  shortCapacity: string[];
  /**
   * On a machine without a GPU: `off` fails every CUDA request; `cpu-image` (default) runs the cpu image on the CPU
   * even when a GPU pool set ADAPTER_GPU=cuda, and fails the cuda image; `all` runs the cuda image on the CPU too.
   */
  gpuEmulation: GpuEmulation;
}

/**
 * Whether the model's execution role may pull from the image's repository (ecr:BatchGetImage), under the stack's
 * policy for that role; undefined for a role local mode has no policy of (any role but the stack's execution role).
 */
export type ExecutionRolePull = (roleArn: string, repositoryArn: string) => boolean | undefined;

export interface PreparedContainer {
  imageUri: string;
  image: LocalImage;
  /** What the image's repository runs for the variant that runs (the fixture's), and its container contract. */
  program: InstanceProgram;
  contract: ContainerContract;
  /** What every instance of the model gets (before the per-instance variables). */
  environment: Record<string, string>;
}

export interface ContainerRequest {
  model: ModelDoc;
  /** Names the variant or job in failure reasons and log lines. */
  label: string;
  instanceType: string | undefined;
  modelDir: string;
  /** Variables SageMaker adds for this use of the model (a transform job's Environment and batch settings). */
  extraEnvironment?: Record<string, string>;
  /** Writes a line to the resource's log (what local mode left out or changed). */
  note: (line: string) => void;
}

/**
 * What SageMaker does before it starts a model's container on an instance, as local mode stands in for it: resolve
 * the image in the local registry, check that the execution role may pull it, screen the Environment to the
 * documented variables, refuse or emulate a CUDA request on a machine without a GPU, cap threads at this machine's
 * cores, and lay out the model data.
 */
export async function prepareContainer(
  deps: {
    registry: ImageRegistry;
    objects: ObjectStore;
    capacity: LocalCapacity;
    executionRoleMayPull: ExecutionRolePull;
  },
  request: ContainerRequest,
): Promise<PreparedContainer> {
  const { model, label, note } = request;
  const container = model.PrimaryContainer ?? model.Containers?.[0];
  const imageUri = container?.Image ?? "";
  const image = deps.registry.resolve(imageUri);
  if (!container || !image) {
    throw new ProvisioningError(
      `Failed to pull the container image "${imageUri}" for ${label}: the image does not exist in the registry or cannot be accessed.`,
    );
  }
  const repositoryArn = `arn:aws:ecr:${DEFAULT_REGION}:${image.registryId}:repository/${image.repository}`;
  if (model.ExecutionRoleArn && deps.executionRoleMayPull(model.ExecutionRoleArn, repositoryArn) === false) {
    throw new ProvisioningError(
      `The role '${model.ExecutionRoleArn}' does not have BatchGetImage permission for the image: '${imageUri}'.`,
    );
  }
  const environment = screen(
    { ...(container.Environment ?? {}), ...request.extraEnvironment },
    request.modelDir,
    label,
    note,
  );
  const standIn = deps.registry.program(image.repository, image.variant).contract === "llama-server";
  let runsCuda = image.variant === "cuda" || (!standIn && environment.ADAPTER_GPU === "cuda");
  if (runsCuda && !hasNvidiaGpu()) {
    const emulation = deps.capacity.gpuEmulation;
    if (!(emulation === "all" || (emulation === "cpu-image" && image.variant === "cpu"))) {
      throw new ProvisioningError(
        `${label} asks for CUDA (${image.variant === "cuda" ? `the cuda image ${image.digest}` : "ADAPTER_GPU=cuda"}), but this machine has no NVIDIA GPU. Deploy the cpu image locally, set ${EMULATE_GPU_ENV}=1 to run GPU deployments on the CPU, or deploy to a GPU instance on AWS.`,
      );
    }
    runsCuda = false;
    delete environment.ADAPTER_GPU;
    note(
      `${label}: this machine has no GPU, so the ${request.instanceType} instance is emulated on the CPU (${standIn ? "the stand-in runs as the cpu image" : "ADAPTER_GPU=cuda dropped"}).`,
    );
  } else if (!standIn && image.variant === "cuda") environment.ADAPTER_GPU ??= "cuda";
  const threadsVariable = standIn ? "SM_LLAMA_CPP_THREADS" : "ADAPTER_THREADS";
  const cpus = os.availableParallelism();
  if (Number(environment[threadsVariable]) > cpus) {
    // The instance type's vCPUs are not this machine's: more threads than cores would only make every instance slower.
    note(`${label}: ${threadsVariable}=${environment[threadsVariable]} lowered to this machine's ${cpus} CPUs.`);
    environment[threadsVariable] = String(cpus);
  }
  try {
    await layOutModel(deps.objects, container, request.modelDir);
  } catch (error) {
    throw new ProvisioningError(`${(error as Error).message} (${label})`);
  }
  const { program, contract } = deps.registry.program(image.repository, runsCuda ? "cuda" : "cpu");
  return { imageUri, image, program, contract, environment };
}

/** The Environment as a local instance gets it (`container-environment.ts`), with what was left out said in the log. */
function screen(model: Record<string, string>, modelDir: string, label: string, note: (line: string) => void) {
  let screened: ReturnType<typeof screenEnvironment>;
  try {
    screened = screenEnvironment(model, modelDir);
  } catch (error) {
    if (error instanceof ContainerEnvironmentError) throw new ProvisioningError(`${error.message} (${label})`);
    throw error;
  }
  if (screened.dropped.length > 0) {
    note(
      `${label}: environment variables not passed to the container: ${screened.dropped.join(", ")}. Local instances get only the variables the adapter documents (${DOCUMENTED_PREFIXES.map((prefix) => `${prefix}*`).join(", ")}).`,
    );
  }
  if (screened.replaced.length > 0) {
    note(
      `${label}: ${screened.replaced.join(", ")} set by local mode for each instance; the model's value is not used.`,
    );
  }
  return screened.environment;
}

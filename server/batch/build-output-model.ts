import type { BuildOutputSource } from "../../contract/batch/transform-jobs.ts";
import { batchCudaReason, batchModelDataReason, isBatchModelData } from "../../contract/batch/transform-jobs.ts";
import type { AwsClients } from "../aws/clients.ts";
import { getBuilds } from "../builds/builds.ts";
import type { ConsoleSettings } from "../console-settings.ts";
import { createModel, executionRole, modelInput } from "../endpoints/deploy.ts";
import { AppError } from "../http/app-error.ts";
import { listAdapterImages } from "../images/images.ts";

/** The model artifact of a succeeded model-packaging build, or a 4xx saying why the build has none to offer. */
async function modelArtifactOf(aws: Pick<AwsClients, "codeBuild">, settings: ConsoleSettings, buildId: string) {
  const [build] = await getBuilds(aws.codeBuild, settings, [buildId]);
  if (!build) throw new AppError("not_found", `buildOutput.buildId: no console build with id "${buildId}".`);
  if (build.kind !== "model") {
    throw new AppError(
      "bad_request",
      `buildOutput.buildId: "${buildId}" is an image build; a job runs the output of a model-packaging build.`,
    );
  }
  if (build.status !== "SUCCEEDED" || !build.outputs.modelDataUrl) {
    throw new AppError(
      "bad_request",
      `buildOutput.buildId: model build "${buildId}" is ${build.status}${build.status === "SUCCEEDED" ? " without a model artifact" : ""}; only a succeeded model build's output can be transformed.`,
    );
  }
  if (!isBatchModelData(build.outputs.modelDataUrl)) {
    throw new AppError(
      "bad_request",
      `buildOutput.buildId: model build "${buildId}" packaged its model uncompressed (${build.outputs.modelDataUrl}). ${batchModelDataReason}`,
    );
  }
  return { modelDataUrl: build.outputs.modelDataUrl, modelSha256: build.outputs.modelSha256 ?? undefined };
}

/** The digest-pinned cpu adapter image of the console's repository, or a 4xx (not there, or not the cpu variant). */
async function cpuAdapterImage(aws: Pick<AwsClients, "ecr">, settings: ConsoleSettings, digest: string) {
  const images = await listAdapterImages(aws.ecr, settings.adapterRepository);
  const image = images.find((candidate) => candidate.digest === digest);
  if (!image) {
    throw new AppError(
      "bad_request",
      `buildOutput.imageDigest: ${digest} is not a tagged image of the console's repository "${settings.adapterRepository}".`,
    );
  }
  if (image.variant !== "cpu") {
    const variant = image.variant === "cuda" ? "is the cuda variant" : "is tagged as neither cpu nor cuda";
    throw new AppError("bad_request", `buildOutput.imageDigest: ${digest} ${variant}. ${batchCudaReason}`);
  }
  return image.imageUri;
}

/**
 * CreateModel named `modelName` for a job from a build output: the build's model artifact (its sha256 enforced by
 * the adapter) on a cpu adapter image, with deploy's execution role, container environment and network isolation.
 * Threads are left to the adapter, which takes the instance's CPUs; the model records the build it came from.
 */
export async function createBuildOutputModel(
  aws: Pick<AwsClients, "sageMaker" | "ecr" | "codeBuild">,
  settings: ConsoleSettings,
  modelName: string,
  source: BuildOutputSource,
): Promise<void> {
  const artifact = await modelArtifactOf(aws, settings, source.buildId);
  const imageUri = await cpuAdapterImage(aws, settings, source.imageDigest);
  const role = executionRole(settings.executionRoleArn);
  const model = modelInput(
    {
      name: modelName,
      apiMode: "decision",
      imageUri,
      modelDataUrl: artifact.modelDataUrl,
      compression: "Gzip",
      modelSha256: artifact.modelSha256,
      compute: { kind: "cpu" },
      limits: {},
      sourceBuildId: source.buildId,
    },
    role,
  );
  await createModel(aws.sageMaker, model);
}

import type { Build } from "@/contract/builds/builds.ts";
import type { DeployRequestInput } from "@/contract/endpoints/deploy.ts";
import type { DeployableImage } from "@/contract/images/images.ts";
import { modelOutputsOf } from "../builds/build-format.ts";
import { deployRequestFrom, initialDeployForm } from "../deploy/deploy-request.ts";

/** The trained model the first run seeds (scripts/local-seed/trained-seed.ts), where the seeder puts it. */
export const SEEDED_MODEL = "SmolLM2-135M-Instruct";
const SEEDED_KEY = `/models/seed/${SEEDED_MODEL}/model.tar.gz`;

/** The endpoint a newcomer's one click creates, and opens in the playground. */
export const FIRST_ENDPOINT_NAME = "smollm2-first";

/** The finished build that packaged the seeded SmolLM2 (its output at the seed's key), if the first run seeded it. */
export function seededModelBuild(builds: Build[] | undefined): Build | null {
  return modelOutputsOf(builds).find((build) => build.outputs.modelDataUrl?.endsWith(SEEDED_KEY)) ?? null;
}

/** The newest CPU adapter image (decision API), the one a first deployment runs. */
export function adapterImage(images: DeployableImage[] | undefined): DeployableImage | null {
  return (
    (images ?? [])
      .filter((image) => image.apiMode === "decision" && image.variant !== "cuda")
      .sort((a, b) => (b.pushedAt ?? "").localeCompare(a.pushedAt ?? ""))[0] ?? null
  );
}

/** A newcomer's first deployment: the packaged model on the image, with the deploy form's defaults. */
export function firstDeployRequest(model: Build, image: DeployableImage): DeployRequestInput {
  const form = initialDeployForm({
    image: image.imageUri,
    model: model.outputs.modelDataUrl ?? undefined,
    sha256: model.outputs.modelSha256 ?? undefined,
    bytes: model.outputs.modelBytes === null ? undefined : String(model.outputs.modelBytes),
  });
  return deployRequestFrom({ ...form, name: FIRST_ENDPOINT_NAME });
}

import type { Build } from "@/contract/builds/builds.ts";
import type { DeployRequestInput } from "@/contract/endpoints/deploy.ts";
import type { ImageList } from "@/contract/images/images.ts";
import { modelOutputsOf } from "../builds/build-format.ts";
import { deployRequestFrom, initialDeployForm } from "../deploy/deploy-request.ts";

/** The trained model the first run seeds (scripts/local-seed/trained-seed.ts), where the seeder puts it. */
export const SEEDED_MODEL = "SmolLM2-135M-Instruct";
const SEEDED_KEY = `/models/seed/${SEEDED_MODEL}/model.tar.gz`;

/** The endpoint a newcomer's one click creates, and opens in the playground. */
export const FIRST_ENDPOINT_NAME = "smollm2-first";

/**
 * A newcomer's first deployment in one click: the seeded SmolLM2's packaged model (a finished model build's output at
 * the seed's key) on the newest adapter image (decision API, CPU), with the deploy form's defaults. Null when either is
 * missing, and the page shows the long way instead.
 */
export function firstDeployRequest(
  builds: Build[] | undefined,
  images: ImageList["images"] | undefined,
): DeployRequestInput | null {
  const model = modelOutputsOf(builds).find((build) => build.outputs.modelDataUrl?.endsWith(SEEDED_KEY));
  const image = (images ?? [])
    .filter((candidate) => candidate.apiMode === "decision" && candidate.variant !== "cuda")
    .sort((a, b) => (b.pushedAt ?? "").localeCompare(a.pushedAt ?? ""))[0];
  if (!model?.outputs.modelDataUrl || !image) return null;
  const form = initialDeployForm({
    image: image.imageUri,
    model: model.outputs.modelDataUrl,
    sha256: model.outputs.modelSha256 ?? undefined,
    bytes: model.outputs.modelBytes === null ? undefined : String(model.outputs.modelBytes),
  });
  return deployRequestFrom({ ...form, name: FIRST_ENDPOINT_NAME });
}

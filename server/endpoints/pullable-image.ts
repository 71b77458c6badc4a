import {
  LLAMA_CPP_DLC_REPOSITORY,
  LLAMA_CPP_DLC_TAGS,
  llamaCppDlcRepositoryUri,
} from "../../contract/stack/llama-cpp-dlc.ts";
import { AppError } from "../http/app-error.ts";

const privateEcrImage = /^(\d{12})\.dkr\.ecr\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?\/([^@:]+)[@:]/;

/** Where the llama.cpp DLC is pulled from in `region`, in words for a message. */
function dlcInstead(region: string | undefined): string {
  const uri = region ? llamaCppDlcRepositoryUri(region) : null;
  if (!uri) {
    return `Use the llama.cpp DLC's private ECR repository of the endpoint's Region (<account>.dkr.ecr.<region>.amazonaws.com/${LLAMA_CPP_DLC_REPOSITORY}, see the DLC's "Image Access"); it publishes none in ${region ?? "an unknown Region"}.`;
  }
  const tags = Object.values(LLAMA_CPP_DLC_TAGS).join(" or ");
  return `Use ${uri} (tag ${tags}) pinned by digest instead: the Images list offers it resolved.`;
}

/**
 * SageMaker pulls a model image (RepositoryAccessMode Platform, the console's only mode) from Amazon ECR in the
 * endpoint's own Region; it pulls nothing from ECR Public (public.ecr.aws), Docker Hub or another Region. Such an
 * image would only fail the endpoint minutes later, so it is refused before anything is created.
 */
export function assertPullableImage(imageUri: string, region: string | undefined) {
  const match = privateEcrImage.exec(imageUri);
  if (match) {
    const [, , imageRegion, repository] = match;
    if (!region || imageRegion === region) return;
    throw new AppError(
      "bad_request",
      `imageUri: ${imageUri} is in ${imageRegion}, but SageMaker pulls the model image only from Amazon ECR in the endpoint's Region (${region}).` +
        (repository === LLAMA_CPP_DLC_REPOSITORY ? ` ${dlcInstead(region)}` : " Push or replicate the image there."),
    );
  }
  const isDlc = imageUri.startsWith("public.ecr.aws/") && imageUri.includes(`/${LLAMA_CPP_DLC_REPOSITORY}`);
  throw new AppError(
    "bad_request",
    `imageUri: SageMaker does not pull from ${imageUri.split("/")[0]}; it pulls the model image only from private Amazon ECR in the endpoint's Region (<account>.dkr.ecr.${region ?? "<region>"}.amazonaws.com/<repository>).` +
      (isDlc ? ` ${dlcInstead(region)}` : ""),
  );
}

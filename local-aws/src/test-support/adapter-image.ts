import type { ControlPlane } from "../control-plane.ts";
import { ADAPTER_REPOSITORY, type ImageVariant } from "../image-registry.ts";
import { LOCAL_ACCOUNT_ID } from "../wire/request.ts";

/** The digest-pinned URI of the local registry's adapter image of `variant`, as a deploy names it. */
export function localAdapterImageUri(plane: Pick<ControlPlane, "registry">, variant: ImageVariant = "cpu"): string {
  const digest = plane.registry.digestForTag(ADAPTER_REPOSITORY, variant);
  return `${LOCAL_ACCOUNT_ID}.dkr.ecr.us-east-1.amazonaws.com/${ADAPTER_REPOSITORY}@${digest}`;
}

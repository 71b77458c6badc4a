import type { ControlPlane } from "../control-plane.ts";
import type { ImageVariant } from "../image-registry.ts";
import { LOCAL_ACCOUNT_ID } from "../wire/request.ts";

/** The local account's repository whose images run the adapter (the fixture's). */
export function localAdapterRepository(plane: Pick<ControlPlane, "registry">): string {
  const repository = plane.registry.repositories.find(
    (candidate) => candidate.registryId === LOCAL_ACCOUNT_ID && candidate.fixture.contract === "adapter",
  );
  if (!repository) throw new Error("the stack fixture has no adapter repository in the local account");
  return repository.name;
}

/** The digest-pinned URI of the local registry's adapter image of `variant`, as a deploy names it. */
export function localAdapterImageUri(plane: Pick<ControlPlane, "registry">, variant: ImageVariant = "cpu"): string {
  const repository = localAdapterRepository(plane);
  const digest = plane.registry.digestForTag(repository, variant);
  return `${LOCAL_ACCOUNT_ID}.dkr.ecr.us-east-1.amazonaws.com/${repository}@${digest}`;
}

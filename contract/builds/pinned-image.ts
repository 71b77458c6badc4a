import type { BuildOutputs } from "./builds.ts";

/** Deploying needs the image by digest: a tag could move between review and deploy. */
export function pinnedImageUri(outputs: BuildOutputs): string | null {
  const { imageUri, imageDigest } = outputs;
  if (imageUri?.includes("@sha256:")) return imageUri;
  if (!imageUri || !imageDigest) return null;
  return `${imageUri.replace(/:[^/:@]+$/, "")}@${imageDigest}`;
}

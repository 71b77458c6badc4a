/** Recorded in every `model-manifest.json`; raise it when the artifact layout or the manifest changes. */
export const PACKAGER_VERSION = "1.0.0";

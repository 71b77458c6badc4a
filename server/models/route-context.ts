import { versionParamsSchema } from "../../contract/models/model-registry.ts";
import { consoleContext } from "../context.ts";
import { AppError } from "../http/app-error.ts";
import type { RegistryDeps } from "./model-versions.ts";

/** What the registry's routes work with, from the console's one context. */
export function registryDeps(): RegistryDeps {
  const { aws, store, settings, endpointSummaries } = consoleContext();
  return {
    store,
    sageMaker: aws.sageMaker,
    s3: aws.s3,
    codeBuild: aws.codeBuild,
    artifactBucket: settings.artifactBucket,
    endpointSummaries,
    projects: settings,
    prefix: settings.resourceNamePrefix,
    region: settings.region ?? undefined,
  };
}

/** `[group]` and `[version]` of a version's route, checked before any AWS call. */
export async function versionParams(params: Promise<{ group: string; version?: string }>) {
  const raw = await params;
  const parsed = versionParamsSchema.safeParse({ group: raw.group, version: raw.version ?? "1" });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError("bad_request", `${issue?.path.join(".") || "path"}: ${issue?.message}`);
  }
  return parsed.data;
}

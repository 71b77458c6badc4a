import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { buildSourceFiles } from "@/server/builds/build-sources.ts";
import { listBuilds, startBuild } from "@/server/builds/builds.ts";
import { uploadBuildSources } from "@/server/builds/source-upload.ts";
import { consoleContext } from "@/server/context.ts";
import { AppError } from "@/server/http/app-error.ts";
import { readJson, reply, route } from "@/server/http/route.ts";

/** BuildList: the newest model-packaging and image builds. */
export const GET = route(async (request) => {
  await requireRole(request, "viewer");
  const { aws, settings } = consoleContext();
  return reply(consoleApi.listBuilds, { builds: await listBuilds(aws.codeBuild, settings) });
});

/**
 * StartBuildRequest -> Build (202). Every build runs from a source archive of exactly the files its buildspec and
 * Dockerfile read, uploaded to the artifact bucket first (the same in both modes).
 */
export const POST = route(async (request) => {
  const principal = await requireRole(request, "operator");
  const start = await readJson(request, consoleApi.startBuild.body);
  const { aws, store, settings } = consoleContext();
  const build = await audited(
    store,
    { actor: principal.name, action: "build.start", target: start.kind, detail: start },
    async () => {
      if (!settings.artifactBucket) {
        throw new AppError(
          "unavailable",
          "Builds need an artifact bucket for their sources: set CONSOLE_ARTIFACT_BUCKET (the stack's ArtifactBucketName).",
        );
      }
      const root = process.cwd();
      const source = await uploadBuildSources(aws.s3, settings.artifactBucket, root, buildSourceFiles(root, start));
      return startBuild(aws.codeBuild, settings, start, source);
    },
  );
  return reply(consoleApi.startBuild, build);
});

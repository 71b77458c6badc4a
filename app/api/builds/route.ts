import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { listBuilds, startBuild } from "@/server/builds/builds.ts";
import { uploadBuildSources } from "@/server/builds/source-upload.ts";
import { consoleContext } from "@/server/context.ts";
import { readJson, reply, route } from "@/server/http/route.ts";

/** BuildList: the newest model-packaging and image builds. */
export const GET = route(async (request) => {
  await requireRole(request, "viewer");
  const { aws, settings } = consoleContext();
  return reply(consoleApi.listBuilds, { builds: await listBuilds(aws.codeBuild, settings) });
});

/**
 * StartBuildRequest -> Build (202). Image builds on AWS take the working tree's sources from the artifact bucket
 * when one is configured; otherwise the CodeBuild project's own source is used.
 */
export const POST = route(async (request) => {
  const principal = await requireRole(request, "operator");
  const start = await readJson(request, consoleApi.startBuild.body);
  const { aws, db, settings } = consoleContext();
  const build = await audited(
    db,
    { actor: principal.name, action: "build.start", target: start.kind, detail: start },
    async () => {
      const source =
        start.kind === "image" && settings.mode === "aws" && settings.artifactBucket
          ? await uploadBuildSources(aws.s3, settings.artifactBucket, process.cwd())
          : undefined;
      return startBuild(aws.codeBuild, settings, start, source);
    },
  );
  return reply(consoleApi.startBuild, build);
});

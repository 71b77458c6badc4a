import type {
  BatchGetBuildsCommandInput,
  BatchGetBuildsCommandOutput,
  BatchGetProjectsCommandInput,
  BatchGetProjectsCommandOutput,
  ListBuildsCommandInput,
  ListBuildsCommandOutput,
  ListBuildsForProjectCommandInput,
  ListBuildsForProjectCommandOutput,
  StartBuildCommandInput,
  StartBuildCommandOutput,
  StopBuildCommandInput,
  StopBuildCommandOutput,
} from "@aws-sdk/client-codebuild";
import { type BuildRunner, buildLogGroup, buildLogStream } from "../builds/build-runner.ts";
import type { BuildRecord, BuildStore } from "../builds/build-store.ts";
import { AwsError } from "../wire/aws-error.ts";
import { codeBuildInputShapes } from "../wire/generated/codebuild.ts";
import { withInputShapes } from "../wire/input-shapes.ts";
import type { JsonService } from "../wire/json-rpc.ts";
import { LOCAL_ACCOUNT_ID } from "../wire/request.ts";
import { servingOnly } from "../wire/served-members.ts";
import { asJsonOperations, type TypedOperation } from "../wire/typed-operations.ts";
import { codeBuildServedMembers } from "./codebuild-served.ts";

/** The operations this module serves, each typed with the SDK's own input and output. */
type CodeBuildOperations = {
  StartBuild: TypedOperation<StartBuildCommandInput, StartBuildCommandOutput>;
  StopBuild: TypedOperation<StopBuildCommandInput, StopBuildCommandOutput>;
  BatchGetBuilds: TypedOperation<BatchGetBuildsCommandInput, BatchGetBuildsCommandOutput>;
  ListBuildsForProject: TypedOperation<ListBuildsForProjectCommandInput, ListBuildsForProjectCommandOutput>;
  ListBuilds: TypedOperation<ListBuildsCommandInput, ListBuildsCommandOutput>;
  BatchGetProjects: TypedOperation<BatchGetProjectsCommandInput, BatchGetProjectsCommandOutput>;
};

function describeBuild(build: BuildRecord, region: string) {
  const group = buildLogGroup(build.project);
  const stream = buildLogStream(build.id);
  return {
    id: build.id,
    arn: `arn:aws:codebuild:${region}:${LOCAL_ACCOUNT_ID}:build/${build.id}`,
    buildNumber: build.number,
    startTime: build.startedAt,
    endTime: build.endedAt ?? undefined,
    currentPhase: build.currentPhase,
    buildStatus: build.status,
    projectName: build.project,
    // ProjectSource: what the build ran (builds recorded before local CodeBuild kept it answer none).
    source: build.source ?? undefined,
    buildComplete: build.status !== "IN_PROGRESS",
    initiator: "local-control-plane",
    phases: build.phases,
    environment: {
      type: "LINUX_CONTAINER" as const,
      image: "local",
      computeType: "BUILD_GENERAL1_SMALL" as const,
      environmentVariables: build.environment,
    },
    logs: {
      groupName: group,
      streamName: stream,
      cloudWatchLogs: { status: "ENABLED" as const, groupName: group, streamName: stream },
      deepLink: `https://console.aws.amazon.com/cloudwatch/home?region=${region}#logEvent:group=${group};stream=${stream}`,
    },
    exportedEnvironmentVariables: build.exported,
  };
}

function requireProject(projects: Readonly<Record<string, unknown>>, name: unknown): string {
  if (typeof name !== "string" || !(name in projects)) {
    throw new AwsError(
      "ResourceNotFoundException",
      `Project cannot be found: arn:aws:codebuild:::project/${String(name)}`,
    );
  }
  return name;
}

function page(ids: string[], nextToken: unknown) {
  const offset = typeof nextToken === "string" ? Number(nextToken) || 0 : 0;
  const slice = ids.slice(offset, offset + 100);
  return { ids: slice, nextToken: offset + 100 < ids.length ? String(offset + 100) : undefined };
}

/** CodeBuild (AWS JSON 1.1): StartBuild, StopBuild, BatchGetBuilds, ListBuildsForProject, ListBuilds, BatchGetProjects. */
export function codeBuildService(builds: BuildStore, runner: BuildRunner): JsonService {
  return {
    target: "CodeBuild_20161006",
    signingName: "codebuild",
    version: "1.1",
    operations: withInputShapes(
      "CodeBuild",
      codeBuildInputShapes,
      servingOnly(
        "CodeBuild",
        codeBuildServedMembers,
        asJsonOperations({
          StartBuild(input, { region }) {
            const project = requireProject(runner.projects, input.projectName);
            if (input.sourceTypeOverride !== undefined && input.sourceTypeOverride !== "S3") {
              throw new AwsError("InvalidInputException", "The local control plane builds from S3 sources only");
            }
            const source =
              input.sourceLocationOverride === undefined
                ? undefined
                : { type: "S3" as const, location: input.sourceLocationOverride };
            const build = runner.start(project, input.environmentVariablesOverride ?? [], region, source);
            return { build: describeBuild(build, region) };
          },
          StopBuild(input, { region }) {
            const id = input.id;
            const build = builds.get(id);
            if (!build) throw new AwsError("ResourceNotFoundException", `Build ${id} does not exist`);
            runner.stop(id);
            return { build: describeBuild(builds.get(id)!, region) };
          },
          BatchGetBuilds(input, { region }) {
            const ids = input.ids;
            const found = ids.map((id) => builds.get(id));
            return {
              builds: found.filter((b) => b !== undefined).map((b) => describeBuild(b, region)),
              buildsNotFound: ids.filter((_, i) => found[i] === undefined),
            };
          },
          ListBuildsForProject(input) {
            const project = requireProject(runner.projects, input.projectName);
            return page(builds.ids(project, input.sortOrder === "ASCENDING"), input.nextToken);
          },
          ListBuilds(input) {
            return page(builds.ids(null, input.sortOrder === "ASCENDING"), input.nextToken);
          },
          BatchGetProjects(input, { region }) {
            const names = input.names;
            return {
              projects: names
                .filter((name) => name in runner.projects)
                .map((name) => ({
                  name,
                  arn: `arn:aws:codebuild:${region}:${LOCAL_ACCOUNT_ID}:project/${name}`,
                  environment: {
                    type: "LINUX_CONTAINER",
                    image: "local",
                    computeType: "BUILD_GENERAL1_SMALL",
                    environmentVariables: Object.entries(runner.projects[name]?.environmentVariables ?? {}).map(
                      ([n, value]) => ({
                        name: n,
                        value,
                        type: "PLAINTEXT",
                      }),
                    ),
                  },
                })),
              projectsNotFound: names.filter((name) => !(name in runner.projects)),
            };
          },
        } satisfies CodeBuildOperations),
        "InvalidInputException",
      ),
      "InvalidInputException",
    ),
  };
}

import {
  BatchGetBuildsCommand,
  type CodeBuildClient,
  type EnvironmentVariable,
  ListBuildsForProjectCommand,
  StartBuildCommand,
  StopBuildCommand,
} from "@aws-sdk/client-codebuild";
import type { Build, StartBuildRequest } from "../../contract/builds/builds.ts";
import { awsCall, toAwsAppError } from "../aws/errors.ts";
import { AppError } from "../http/app-error.ts";
import { type BuildProjects, buildOf, CONSOLE_BUILD_VARIABLES, kindOfProject } from "./build-view.ts";

function variable(name: string, value: string): EnvironmentVariable {
  return { name, value, type: "PLAINTEXT" };
}

/** The packager's and image buildspec's inputs (infra/packager/packager-env.ts; IMAGE_VARIANT). */
export function buildEnvironment(request: StartBuildRequest): EnvironmentVariable[] {
  if (request.kind === "image") return [variable("IMAGE_VARIANT", request.variant)];
  const env = [
    variable("HF_REPO", request.gguf.repo),
    variable("HF_REVISION", request.gguf.revision),
    variable("HF_FILE", request.gguf.file),
    variable("GGUF_SHA256", request.gguf.sha256),
    variable("COMPRESSION", request.compression === "Gzip" ? "gzip" : "none"),
  ];
  if (request.tokenizer) {
    env.push(
      variable("TOKENIZER_REPO", request.tokenizer.repo),
      variable("TOKENIZER_REVISION", request.tokenizer.revision),
    );
  }
  return env;
}

export interface BuildSourceOverride {
  /** `bucket/key` of the uploaded source archive (CodeBuild's S3 source). */
  location: string;
}

export async function startBuild(
  codeBuild: CodeBuildClient,
  projects: BuildProjects,
  request: StartBuildRequest,
  source: BuildSourceOverride,
): Promise<Build> {
  const projectName = request.kind === "model" ? projects.modelPackageProject : projects.imageBuildProject;
  const started = await awsCall(`build project "${projectName}"`, () =>
    codeBuild.send(
      new StartBuildCommand({
        projectName,
        environmentVariablesOverride: buildEnvironment(request),
        sourceTypeOverride: "S3",
        sourceLocationOverride: source.location,
      }),
    ),
  );
  if (!started.build) throw new AppError("upstream", "CodeBuild started no build.");
  return buildOf(started.build, request.kind);
}

export async function getBuilds(codeBuild: CodeBuildClient, projects: BuildProjects, ids: string[]): Promise<Build[]> {
  if (ids.length === 0) return [];
  const result = await awsCall("builds", () => codeBuild.send(new BatchGetBuildsCommand({ ids })));
  return (result.builds ?? []).flatMap((build) => {
    const kind = kindOfProject(build.projectName, projects);
    return kind ? [buildOf(build, kind)] : [];
  });
}

export async function getBuild(codeBuild: CodeBuildClient, projects: BuildProjects, id: string): Promise<Build> {
  const [build] = await getBuilds(codeBuild, projects, [id]);
  if (!build) throw new AppError("not_found", `No console build with id "${id}".`);
  return build;
}

async function recentIds(codeBuild: CodeBuildClient, projectName: string, limit: number): Promise<string[]> {
  try {
    const page = await codeBuild.send(new ListBuildsForProjectCommand({ projectName, sortOrder: "DESCENDING" }));
    return (page.ids ?? []).slice(0, limit);
  } catch (error) {
    const mapped = toAwsAppError(error, `build project "${projectName}"`);
    // A project the stack has not created yet has simply no builds to show.
    if (mapped.status === 404) return [];
    throw mapped;
  }
}

/** The newest builds of both projects, newest first. */
export async function listBuilds(
  codeBuild: CodeBuildClient,
  projects: BuildProjects,
  perProject = 25,
): Promise<Build[]> {
  const ids = [
    ...(await recentIds(codeBuild, projects.modelPackageProject, perProject)),
    ...(await recentIds(codeBuild, projects.imageBuildProject, perProject)),
  ];
  const builds = await getBuilds(codeBuild, projects, ids);
  return builds.sort((a, b) => (b.startedAt ?? "").localeCompare(a.startedAt ?? ""));
}

/** CodeBuild's record of a build of one of the console's projects, or 404. */
async function consoleBuildRecord(codeBuild: CodeBuildClient, projects: BuildProjects, id: string) {
  const result = await awsCall("builds", () => codeBuild.send(new BatchGetBuildsCommand({ ids: [id] })));
  const record = result.builds?.find((build) => build.id === id);
  const kind = record ? kindOfProject(record.projectName, projects) : null;
  if (!record || !kind) throw new AppError("not_found", `No console build with id "${id}".`);
  return { record, kind };
}

/** StopBuild on one of the console's builds; whatever CodeBuild answers for one that has already ended is passed on. */
export async function stopBuild(codeBuild: CodeBuildClient, projects: BuildProjects, id: string): Promise<Build> {
  const { record, kind } = await consoleBuildRecord(codeBuild, projects, id);
  const stopped = await awsCall(`build "${id}"`, () => codeBuild.send(new StopBuildCommand({ id })));
  return buildOf(stopped.build ?? record, kind);
}

/**
 * Runs an ended build again with the same inputs: StartBuild on its project with the variables the console set
 * (as the build reports them) and the same uploaded source archive. 409 while it still runs.
 */
export async function retryBuild(codeBuild: CodeBuildClient, projects: BuildProjects, id: string): Promise<Build> {
  const { record, kind } = await consoleBuildRecord(codeBuild, projects, id);
  if (record.buildStatus === "IN_PROGRESS") {
    throw new AppError("conflict", `Build "${id}" is still running; stop it or wait for it to end before retrying.`);
  }
  const location = record.source?.type === "S3" ? record.source.location : undefined;
  if (!location) {
    throw new AppError("conflict", `Build "${id}" names no S3 source archive to run again; start a new build instead.`);
  }
  const variables = (record.environment?.environmentVariables ?? []).filter(
    (variable) => variable.name && CONSOLE_BUILD_VARIABLES.has(variable.name),
  );
  const projectName = record.projectName ?? "";
  const started = await awsCall(`build project "${projectName}"`, () =>
    codeBuild.send(
      new StartBuildCommand({
        projectName,
        environmentVariablesOverride: variables.map((v) => variable(v.name ?? "", v.value ?? "")),
        sourceTypeOverride: "S3",
        sourceLocationOverride: location,
      }),
    ),
  );
  if (!started.build) throw new AppError("upstream", "CodeBuild started no build.");
  return buildOf(started.build, kind);
}

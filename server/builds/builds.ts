import {
  BatchGetBuildsCommand,
  type CodeBuildClient,
  type EnvironmentVariable,
  ListBuildsForProjectCommand,
  StartBuildCommand,
} from "@aws-sdk/client-codebuild";
import type { Build, StartBuildRequest } from "../../contract/builds/builds.ts";
import { awsCall, toAwsAppError } from "../aws/errors.ts";
import { AppError } from "../http/app-error.ts";
import { type BuildProjects, buildOf, kindOfProject } from "./build-view.ts";

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

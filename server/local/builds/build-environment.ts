import { PACKAGER_VARIABLES } from "../../../infra/packager/packager-env.ts";
import type { AccessKey } from "../local-credentials.ts";
import { LOCAL_ACCOUNT_ID } from "../wire/request.ts";
import type { BuildRecord } from "./build-store.ts";

/** Set by local mode for each build, whatever the project or an override says. */
const SET_BY_LOCAL_MODE = new Set(["PACKAGER_WORK_DIR"]);

export interface BuildJob {
  build: BuildRecord;
  /** The project's variables with the build's overrides applied. */
  variables: Record<string, string>;
  region: string;
  sourceDir: string;
  workDir: string;
  controlPlaneUrl: string;
  /** The build's own keys (the `codebuild` principal), as CodeBuild hands the project's service role to a build. */
  credentials: AccessKey;
}

/**
 * The environment of a model-packaging build's process: the variables the packager documents (the buildspec's,
 * from the project and overrides), what CodeBuild sets in every build, the build's own credentials and local
 * endpoint; nothing of the console's own environment. Returns the variables left out too, for the build log.
 */
export function packagerEnvironment(job: BuildJob): { env: NodeJS.ProcessEnv; dropped: string[] } {
  const passed: Record<string, string> = {};
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(job.variables)) {
    if (PACKAGER_VARIABLES.includes(name) && !SET_BY_LOCAL_MODE.has(name)) passed[name] = value;
    else dropped.push(name);
  }
  const { build, region } = job;
  return {
    dropped: dropped.sort(),
    env: {
      NODE_ENV: "production",
      ...passed,
      CODEBUILD_BUILD_ID: build.id,
      CODEBUILD_BUILD_ARN: `arn:aws:codebuild:${region}:${LOCAL_ACCOUNT_ID}:build/${build.id}`,
      CODEBUILD_BUILD_NUMBER: String(build.number),
      CODEBUILD_INITIATOR: "local-control-plane",
      CODEBUILD_SRC_DIR: job.sourceDir,
      CODEBUILD_START_TIME: String(Math.round(build.startedAt * 1000)),
      HOME: job.workDir,
      PACKAGER_WORK_DIR: job.workDir,
      AWS_REGION: region,
      AWS_DEFAULT_REGION: region,
      AWS_ACCESS_KEY_ID: job.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: job.credentials.secretAccessKey,
      AWS_ENDPOINT_URL_S3: job.controlPlaneUrl,
    },
  };
}

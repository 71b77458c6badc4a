import fs from "node:fs";
import path from "node:path";
import type { AccessKey } from "../local-credentials.ts";
import type { LocalStackFixture } from "../stack-fixture.ts";
import { LOCAL_ACCOUNT_ID } from "../wire/request.ts";
import type { BuildRecord } from "./build-store.ts";
import type { Buildspec } from "./buildspec-phases.ts";

/**
 * The build container's toolchain, as far as local mode can stand in for a CodeBuild image: Node is the control
 * plane's own, and `npm install`/`npm ci` are answered from the control plane's installed dependencies (nothing is
 * downloaded) when the build's package-lock.json is the one they were installed from; any other npm command runs.
 */
export function prepareToolchain(
  scratch: string,
  buildImage: LocalStackFixture["buildImage"],
): { binDir: string; env: Record<string, string> } {
  const binDir = path.join(scratch, "bin");
  fs.mkdirSync(binDir, { recursive: true });
  const npm = path.join(binDir, "npm");
  fs.writeFileSync(
    npm,
    `#!/usr/bin/env bash
case "$1" in
  install|i|ci)
    if ! cmp -s package-lock.json "$LOCAL_CODEBUILD_LOCKFILE"; then
      echo "npm $1: this build's package-lock.json is not the one local CodeBuild's dependencies were installed from; local mode cannot install others" >&2
      exit 1
    fi
    [ -e node_modules ] || ln -s "$LOCAL_CODEBUILD_NODE_MODULES" node_modules
    echo "npm $*: local CodeBuild provides the dependencies this package-lock.json pins (nothing is downloaded)"
    ;;
  *) exec "$LOCAL_CODEBUILD_NPM" "$@" ;;
esac
`,
    { mode: 0o755 },
  );
  const nodeDir = path.dirname(process.execPath);
  const realNpm = fs.existsSync(path.join(nodeDir, "npm")) ? path.join(nodeDir, "npm") : "/usr/bin/npm";
  return {
    binDir,
    env: {
      LOCAL_CODEBUILD_LOCKFILE: buildImage.lockfile,
      LOCAL_CODEBUILD_NODE_MODULES: buildImage.nodeModules,
      LOCAL_CODEBUILD_NPM: realNpm,
    },
  };
}

export interface BuildJob {
  build: BuildRecord;
  buildspec: Buildspec;
  /** The project's variables with the StartBuild overrides applied. */
  variables: Record<string, string>;
  /** The variables the project's buildspec documents as inputs (the stack's project definition, `inputs`). */
  inputs: readonly string[];
  region: string;
  srcDir: string;
  /** The build's scratch directory (its HOME, TMPDIR and toolchain live there). */
  scratch: string;
  /** `bucket/key` of the source the build runs. */
  sourceLocation: string;
  buildImage: LocalStackFixture["buildImage"];
  controlPlaneUrl: string;
  /** The build's own keys, as CodeBuild hands a build its project role's credentials. */
  credentials: AccessKey;
  /** A path of the build's directory as its commands see it (the sandbox's, build-sandbox.ts). */
  inside: (hostPath: string) => string;
}

/**
 * What a build's commands see: the variables its buildspec documents (the project's and StartBuild's values over
 * the buildspec's defaults), CodeBuild's own variables, the local toolchain, and the build's credentials and local
 * endpoints; nothing of the console's own environment. Returns the variables left out too, for the build log.
 */
export function buildEnvironment(job: BuildJob): { env: Record<string, string>; dropped: string[] } {
  const { build, buildspec, region, srcDir, scratch, inside } = job;
  const defaults = Object.fromEntries(
    Object.entries(buildspec.env?.variables ?? {}).map(([name, value]) => [name, String(value)]),
  );
  const documented = new Set([...job.inputs, ...Object.keys(defaults)]);
  const passed: Record<string, string> = {};
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(job.variables)) {
    if (documented.has(name)) passed[name] = value;
    else dropped.push(name);
  }
  const toolchain = prepareToolchain(scratch, job.buildImage);
  const home = path.join(scratch, "home");
  fs.mkdirSync(home, { recursive: true });
  const url = job.controlPlaneUrl;
  return {
    dropped: dropped.sort(),
    env: {
      ...defaults,
      ...passed,
      PATH: [inside(toolchain.binDir), path.dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(":"),
      HOME: inside(home),
      TMPDIR: inside(scratch),
      LANG: "C.UTF-8",
      CODEBUILD_BUILD_ID: build.id,
      CODEBUILD_BUILD_ARN: `arn:aws:codebuild:${region}:${LOCAL_ACCOUNT_ID}:build/${build.id}`,
      CODEBUILD_BUILD_NUMBER: String(build.number),
      CODEBUILD_SRC_DIR: inside(srcDir),
      CODEBUILD_SOURCE_VERSION: `arn:aws:s3:::${job.sourceLocation}`,
      CODEBUILD_START_TIME: String(Math.round(build.startedAt * 1000)),
      CODEBUILD_INITIATOR: "local-control-plane",
      CODEBUILD_BUILD_IMAGE: "local",
      ...toolchain.env,
      AWS_REGION: region,
      AWS_DEFAULT_REGION: region,
      AWS_ACCESS_KEY_ID: job.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: job.credentials.secretAccessKey,
      AWS_ENDPOINT_URL_S3: url,
      AWS_ENDPOINT_URL_CLOUDWATCH_LOGS: url,
      AWS_ENDPOINT_URL_ECR: url,
    },
  };
}

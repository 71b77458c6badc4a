import fs from "node:fs";
import path from "node:path";
import { loadStackProjects } from "../iam/stack-policies.ts";
import type { ImageRegistry } from "../image-registry.ts";
import type { LogStore } from "../log-store.ts";
import type { ObjectStore } from "../object-store.ts";
import { DEFAULT_REGION, LOCAL_ACCOUNT_ID } from "../wire/request.ts";
import { prepareToolchain } from "./build-environment.ts";
import { downloadSource, PhaseError } from "./build-source.ts";
import type { BuildPhase, BuildRecord, BuildStatus, BuildStore } from "./build-store.ts";
import { type Buildspec, type PhaseType, readSourceBuildspec, runBuildspecPhases } from "./buildspec-phases.ts";
import { localImageBuild } from "./image-build-step.ts";

export { IMAGE_BUILD_PROJECT, MODEL_PACKAGE_PROJECT } from "../../../infra/cdk/console-contract.ts";

import { IMAGE_BUILD_PROJECT } from "../../../infra/cdk/console-contract.ts";

/** The bucket local model-packaging builds write to (the IaC stack's artifact bucket on AWS). */
export const LOCAL_ARTIFACT_BUCKET = "decision-console-local";

/** The CodeBuild projects as the CDK stack defines them (buildspec path, default source, environment). */
export const localProjects = loadStackProjects({
  accountId: LOCAL_ACCOUNT_ID,
  region: DEFAULT_REGION,
  bucketName: LOCAL_ARTIFACT_BUCKET,
});

const LEADING_PHASES = ["SUBMITTED", "QUEUED", "PROVISIONING"];
const BUILDSPEC_PHASE_TYPES: PhaseType[] = ["INSTALL", "PRE_BUILD", "BUILD", "POST_BUILD"];
const TRAILING_PHASES = ["UPLOAD_ARTIFACTS", "FINALIZING"];

export interface BuildSource {
  type: string;
  /** `bucket/key.zip` or `bucket/prefix/`. */
  location: string;
}

interface JobContext {
  build: BuildRecord;
  source: BuildSource;
  buildspecPath: string;
  /** The project's environment variables with the StartBuild overrides applied. */
  env: Record<string, string>;
  region: string;
  log: (line: string) => void;
  signal: AbortSignal;
}

export function buildLogGroup(project: string): string {
  return `/aws/codebuild/${project}`;
}

export function buildLogStream(buildId: string): string {
  return buildId.split(":")[1] ?? buildId;
}

const nowSeconds = () => Date.now() / 1000;
const stamp = () => new Date().toISOString().replace("T", " ").replace("Z", "");

/**
 * Runs local CodeBuild builds from the source the StartBuild call names (the uploaded archive in the local S3,
 * never the working tree): DOWNLOAD_SOURCE unpacks it into the build's own directory and reads the buildspec from
 * the path the project names; the phases run the buildspec's commands with the build's variables. Image builds
 * are the exception where a command would need Docker (image-build-step.ts).
 */
export class BuildRunner {
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>();

  constructor(
    private readonly builds: BuildStore,
    private readonly registry: ImageRegistry,
    private readonly logs: LogStore,
    private readonly objects: ObjectStore,
    private readonly dataDir: string,
    private readonly repoRoot: string,
    private readonly controlPlaneUrl: () => string,
    /** Where model-packaging builds fetch Hugging Face files (HF_ENDPOINT); a build's own override wins. */
    private readonly hfEndpoint: string | undefined,
  ) {}

  start(
    project: string,
    overrides: { name: string; value: string; type?: string }[],
    region: string,
    sourceOverride?: BuildSource,
  ): BuildRecord {
    const definition = localProjects[project];
    if (!definition) throw new Error(`No local CodeBuild project ${project}`);
    const uuid = crypto.randomUUID();
    const id = `${project}:${uuid}`;
    const env = { ...definition.environmentVariables };
    for (const override of overrides) env[override.name] = override.value;
    const started = nowSeconds();
    const build: BuildRecord = {
      id,
      project,
      number: this.builds.nextNumber(project),
      status: "IN_PROGRESS",
      currentPhase: "SUBMITTED",
      phases: [{ phaseType: "SUBMITTED", startTime: started }],
      environment: Object.entries(env).map(([name, value]) => ({ name, value, type: "PLAINTEXT" })),
      exported: [],
      startedAt: started,
      endedAt: null,
    };
    this.builds.insert(build);
    const abort = new AbortController();
    const log = (line: string) => this.logs.append(buildLogGroup(project), buildLogStream(id), line);
    log(`[Container] ${stamp()} Running on the local control plane (build ${id})`);
    const source = sourceOverride ?? { type: definition.sourceType, location: definition.sourceLocation };
    const context: JobContext = {
      build,
      source,
      buildspecPath: definition.buildspec,
      env,
      region,
      log,
      signal: abort.signal,
    };
    const done = this.run(context).finally(() => this.running.delete(id));
    this.running.set(id, { abort, done });
    return build;
  }

  stop(id: string): boolean {
    const running = this.running.get(id);
    running?.abort.abort();
    return running !== undefined;
  }

  /** Builds that were running when the control plane stopped cannot resume: they end as FAULT. */
  failInterrupted() {
    for (const build of this.builds.inProgress()) {
      const phase = build.phases.at(-1);
      if (phase && !phase.phaseStatus)
        this.endPhase(phase, "FAULT", "The local control plane stopped during this phase.");
      this.finish(build, "FAULT");
    }
  }

  async close() {
    for (const running of this.running.values()) running.abort.abort();
    await Promise.all([...this.running.values()].map((running) => running.done));
  }

  settled(id: string): Promise<void> {
    return this.running.get(id)?.done ?? Promise.resolve();
  }

  private async run(context: JobContext) {
    const { build, log } = context;
    this.endPhase(build.phases[0]!, "SUCCEEDED");
    for (const phase of LEADING_PHASES.slice(1)) {
      this.beginPhase(build, phase);
      this.endPhase(build.phases.at(-1)!, "SUCCEEDED");
    }
    const workDir = path.join(this.dataDir, "builds", buildLogStream(build.id));
    const srcDir = path.join(workDir, "src");
    const scratch = path.join(workDir, "scratch");
    let status: BuildStatus = "SUCCEEDED";
    try {
      this.beginPhase(build, "DOWNLOAD_SOURCE");
      let buildspec: Buildspec;
      try {
        fs.mkdirSync(scratch, { recursive: true });
        log(`[Container] ${stamp()} CODEBUILD_SRC_DIR=${srcDir}`);
        const files = downloadSource(this.objects, context.source.location, srcDir);
        log(`[Container] ${stamp()} Unpacked ${files} source files from s3://${context.source.location}`);
        buildspec = readSourceBuildspec(srcDir, context.buildspecPath);
      } catch (error) {
        this.failPhase(build, "DOWNLOAD_SOURCE", error, context);
        status = "FAILED";
        return;
      }
      this.completePhase(build, "DOWNLOAD_SOURCE", context);
      status =
        build.project === IMAGE_BUILD_PROJECT
          ? this.imageBuild(context, buildspec, srcDir)
          : await this.buildspecBuild(context, buildspec, srcDir, scratch);
    } finally {
      if (context.signal.aborted) status = "STOPPED";
      for (const phase of TRAILING_PHASES) {
        this.beginPhase(build, phase);
        this.endPhase(build.phases.at(-1)!, "SUCCEEDED");
      }
      fs.rmSync(workDir, { recursive: true, force: true });
      this.finish(build, status);
    }
  }

  /** Runs the buildspec's phases in the unpacked source; the phase timeline follows the shell's progress. */
  private async buildspecBuild(context: JobContext, buildspec: Buildspec, srcDir: string, scratch: string) {
    const { build, log } = context;
    const recorded = new Set<PhaseType>();
    const catchUp = (until: PhaseType) => {
      for (const phase of BUILDSPEC_PHASE_TYPES) {
        if (phase === until) return;
        if (!recorded.has(phase)) {
          recorded.add(phase);
          this.beginPhase(build, phase);
          this.completePhase(build, phase, context);
        }
      }
    };
    for (const [name, version] of Object.entries(buildspec.phases?.install?.["runtime-versions"] ?? {})) {
      log(
        `[Container] ${stamp()} runtime-versions ${name}: ${String(version)} requested; local CodeBuild runs Node ${process.version}`,
      );
    }
    const run = await runBuildspecPhases(buildspec, {
      cwd: srcDir,
      scratch,
      env: this.childEnvironment(context, buildspec, srcDir, scratch),
      signal: context.signal,
      events: {
        phaseStarted: (phase) => {
          catchUp(phase);
          recorded.add(phase);
          this.beginPhase(build, phase);
        },
        phaseEnded: (phase, failure) => {
          if (failure) this.failPhase(build, phase, new PhaseError("COMMAND_EXECUTION_ERROR", failure), context);
          else this.completePhase(build, phase, context);
        },
        commandStarted: (command) => log(`[Container] ${stamp()} Running command ${command}`),
        output: log,
      },
    });
    if (!run.failed) catchUp("POST_BUILD" as PhaseType);
    if (!run.failed && !recorded.has("POST_BUILD")) {
      this.beginPhase(build, "POST_BUILD");
      this.completePhase(build, "POST_BUILD", context);
    }
    build.exported = Object.entries(run.exported).map(([name, value]) => ({ name, value }));
    this.builds.save(build);
    return run.failed ? "FAILED" : "SUCCEEDED";
  }

  /** INSTALL and PRE_BUILD have nothing local mode can run (runtime, `docker login`); BUILD is the Docker step. */
  private imageBuild(context: JobContext, buildspec: Buildspec, srcDir: string): BuildStatus {
    const { build, log, region } = context;
    const variables = {
      ...Object.fromEntries(Object.entries(buildspec.env?.variables ?? {}).map(([k, v]) => [k, String(v)])),
      ...context.env,
    };
    for (const phase of ["INSTALL", "PRE_BUILD"] as const) {
      this.beginPhase(build, phase);
      this.completePhase(build, phase, context);
    }
    this.beginPhase(build, "BUILD");
    try {
      const exported = localImageBuild({
        srcDir,
        buildspec,
        variables,
        registry: this.registry,
        buildNumber: build.number,
        registryHost: `${LOCAL_ACCOUNT_ID}.dkr.ecr.${region}.amazonaws.com`,
        log,
      });
      const declared = new Set(buildspec.env?.["exported-variables"] ?? []);
      build.exported = Object.entries(exported)
        .filter(([name]) => declared.has(name))
        .map(([name, value]) => ({ name, value }));
      this.completePhase(build, "BUILD", context);
    } catch (error) {
      this.failPhase(build, "BUILD", error, context);
      return "FAILED";
    }
    this.beginPhase(build, "POST_BUILD");
    this.completePhase(build, "POST_BUILD", context);
    return "SUCCEEDED";
  }

  /**
   * What a build's commands see: CodeBuild's own variables, the buildspec's defaults under the project's and the
   * StartBuild's values, the local toolchain, and the local endpoints and credentials for AWS calls.
   */
  private childEnvironment(
    context: JobContext,
    buildspec: Buildspec,
    srcDir: string,
    scratch: string,
  ): Record<string, string> {
    const { build, region } = context;
    const toolchain = prepareToolchain(scratch, this.repoRoot);
    const home = path.join(scratch, "home");
    fs.mkdirSync(home, { recursive: true });
    const buildspecDefaults = Object.fromEntries(
      Object.entries(buildspec.env?.variables ?? {}).map(([name, value]) => [name, String(value)]),
    );
    const url = this.controlPlaneUrl();
    return {
      PATH: [toolchain.binDir, path.dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(":"),
      HOME: home,
      TMPDIR: scratch,
      LANG: "C.UTF-8",
      CODEBUILD_BUILD_ID: build.id,
      CODEBUILD_BUILD_ARN: `arn:aws:codebuild:${region}:${LOCAL_ACCOUNT_ID}:build/${build.id}`,
      CODEBUILD_BUILD_NUMBER: String(build.number),
      CODEBUILD_SRC_DIR: srcDir,
      CODEBUILD_SOURCE_VERSION: `arn:aws:s3:::${context.source.location}`,
      CODEBUILD_INITIATOR: "local-control-plane",
      CODEBUILD_BUILD_IMAGE: "local",
      ...toolchain.env,
      ...(this.hfEndpoint ? { HF_ENDPOINT: this.hfEndpoint } : {}),
      ...buildspecDefaults,
      ...context.env,
      AWS_REGION: region,
      AWS_DEFAULT_REGION: region,
      AWS_ACCESS_KEY_ID: "local",
      AWS_SECRET_ACCESS_KEY: "local",
      AWS_ENDPOINT_URL_S3: url,
      AWS_ENDPOINT_URL_CLOUDWATCH_LOGS: url,
      AWS_ENDPOINT_URL_ECR: url,
    };
  }

  private beginPhase(build: BuildRecord, phaseType: string) {
    build.phases.push({ phaseType, startTime: nowSeconds() });
    build.currentPhase = phaseType;
    this.builds.save(build);
  }

  private completePhase(build: BuildRecord, phaseType: string, context: JobContext) {
    this.endPhase(build.phases.at(-1)!, "SUCCEEDED");
    this.builds.save(build);
    context.log(`[Container] ${stamp()} Phase complete: ${phaseType} State: SUCCEEDED`);
  }

  private failPhase(build: BuildRecord, phaseType: string, error: unknown, context: JobContext) {
    const statusCode = error instanceof PhaseError ? error.statusCode : "COMMAND_EXECUTION_ERROR";
    const message = error instanceof Error ? error.message : String(error);
    const status: BuildStatus = context.signal.aborted ? "STOPPED" : "FAILED";
    this.endPhase(build.phases.at(-1)!, status, message, statusCode);
    this.builds.save(build);
    context.log(`[Container] ${stamp()} Phase complete: ${phaseType} State: ${status}`);
    context.log(`[Container] ${stamp()} Phase context status code: ${statusCode} Message: ${message}`);
  }

  private endPhase(phase: BuildPhase, status: BuildStatus, message?: string, code?: string) {
    phase.phaseStatus = status;
    phase.endTime = nowSeconds();
    phase.durationInSeconds = Math.max(0, Math.round(phase.endTime - phase.startTime));
    if (message) phase.contexts = [{ statusCode: code ?? status, message }];
  }

  private finish(build: BuildRecord, status: BuildStatus) {
    build.phases.push({ phaseType: "COMPLETED", startTime: nowSeconds() });
    build.currentPhase = "COMPLETED";
    build.status = status;
    build.endedAt = nowSeconds();
    this.builds.save(build);
  }
}

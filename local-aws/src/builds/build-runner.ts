import fs from "node:fs";
import path from "node:path";
import type { BuildPhaseType, SourceType } from "@aws-sdk/client-codebuild";
import { containedPath } from "../contained-path.ts";
import type { RequestAuthorizer } from "../iam/request-authorizer.ts";
import { type LocalProjectDefinition, loadStackProjects } from "../iam/stack-policies.ts";
import { type ImageRegistry, registryHost } from "../image-registry.ts";
import type { AccessKey, LocalCredentials } from "../local-credentials.ts";
import type { LogStore } from "../log-store.ts";
import type { ObjectStore } from "../object-store.ts";
import type { LocalStackFixture } from "../stack-fixture.ts";
import { AwsError } from "../wire/aws-error.ts";
import { DEFAULT_REGION, LOCAL_ACCOUNT_ID } from "../wire/request.ts";
import { buildEnvironment } from "./build-environment.ts";
import { type BuildSandbox, buildSandbox } from "./build-sandbox.ts";
import { downloadSource, PhaseError } from "./build-source.ts";
import type { BuildPhase, BuildRecord, BuildStatus, BuildStore } from "./build-store.ts";
import { type Buildspec, type PhaseType, readSourceBuildspec, runBuildspecPhases } from "./buildspec-phases.ts";
import { localImageBuild } from "./image-build-step.ts";

const LEADING_PHASES: BuildPhaseType[] = ["SUBMITTED", "QUEUED", "PROVISIONING"];
const BUILDSPEC_PHASE_TYPES: PhaseType[] = ["INSTALL", "PRE_BUILD", "BUILD", "POST_BUILD"];
const TRAILING_PHASES: BuildPhaseType[] = ["UPLOAD_ARTIFACTS", "FINALIZING"];

export interface BuildSource {
  type: SourceType;
  /** `bucket/key.zip` or `bucket/prefix/`. */
  location: string;
}

interface JobContext {
  build: BuildRecord;
  source: BuildSource;
  /** The project as the stack defines it (buildspec path, privileged mode, documented inputs). */
  project: LocalProjectDefinition;
  /** The project's environment variables with the StartBuild overrides applied. */
  env: Record<string, string>;
  region: string;
  /** The build's own keys (its `codebuild` principal), revoked when it ends. */
  credentials: AccessKey;
  log: (line: string) => void;
  signal: AbortSignal;
}

/** Where the files a local model-packaging build may package (`SOURCE_PATH`) live. */
export function buildSourcesDir(dataDir: string): string {
  return path.join(dataDir, "build-sources");
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
 * are the exception where a command would need Docker (image-build-step.ts). Each build signs its calls back to the
 * control plane with keys of its own, and its processes end with it (and with the control plane).
 */
export class BuildRunner {
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>();

  constructor(
    private readonly builds: BuildStore,
    private readonly registry: ImageRegistry,
    private readonly logs: LogStore,
    private readonly objects: ObjectStore,
    private readonly dataDir: string,
    private readonly fixture: Pick<LocalStackFixture, "stack" | "bucket" | "buildImage">,
    private readonly controlPlaneUrl: () => string,
    /** Issues each build's own keys (the `codebuild` principal, with the build's project and id). */
    private readonly credentials: LocalCredentials,
    /** The stack's IAM: DOWNLOAD_SOURCE reads the source with the build's role, as CodeBuild does. */
    private readonly iam: RequestAuthorizer,
    /** Where model-packaging builds fetch Hugging Face files (HF_ENDPOINT); a build's own override wins. */
    private readonly hfEndpoint: string | undefined,
  ) {
    this.projects = loadStackProjects(fixture.stack, {
      accountId: LOCAL_ACCOUNT_ID,
      region: DEFAULT_REGION,
      bucketName: fixture.bucket,
    });
  }

  /** The stack's CodeBuild projects as it defines them (buildspec path, default source, environment). */
  readonly projects: Readonly<Record<string, LocalProjectDefinition>>;

  start(
    project: string,
    overrides: { name: string; value: string; type?: string }[],
    region: string,
    sourceOverride?: BuildSource,
  ): BuildRecord {
    const definition = this.projects[project];
    if (!definition) throw new Error(`No local CodeBuild project ${project}`);
    const uuid = crypto.randomUUID();
    const id = `${project}:${uuid}`;
    const env = { ...definition.environmentVariables };
    for (const override of overrides) env[override.name] = override.value;
    if (env.SOURCE_PATH) env.SOURCE_PATH = this.buildSource(env.SOURCE_PATH);
    const started = nowSeconds();
    const source = sourceOverride ?? { type: definition.sourceType, location: definition.sourceLocation };
    const build: BuildRecord = {
      id,
      project,
      source: { ...source, buildspec: definition.buildspec },
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
    const context: JobContext = {
      build,
      source,
      project: definition,
      env,
      region,
      credentials: this.credentials.issueBuildKey(project, id),
      log,
      signal: abort.signal,
    };
    const done = this.run(context).finally(() => {
      this.credentials.revokeKey(context.credentials.accessKeyId);
      this.running.delete(id);
    });
    this.running.set(id, { abort, done });
    return build;
  }

  /**
   * A model-packaging build reads a local `SOURCE_PATH` as its own source: on CodeBuild a file of the build's
   * container, locally a file under `<dataDir>/build-sources`, never anywhere else the console's user can read.
   */
  private buildSource(sourcePath: string): string {
    const dir = buildSourcesDir(this.dataDir);
    const relative = path.isAbsolute(sourcePath) ? path.relative(dir, sourcePath) : sourcePath;
    try {
      return containedPath(dir, ...relative.split(path.sep));
    } catch {
      throw new AwsError(
        "InvalidInputException",
        `SOURCE_PATH must name a file under ${dir} (the local build's source); ${sourcePath} is outside it.`,
      );
    }
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
    const workDir = containedPath(this.dataDir, "builds", buildLogStream(build.id));
    const srcDir = path.join(workDir, "src");
    const scratch = path.join(workDir, "scratch");
    // Commands run sandboxed or not at all (build-sandbox.ts); an image build runs none.
    let sandbox: BuildSandbox | undefined;
    let unsandboxable: unknown;
    if (!context.project.privilegedMode) {
      try {
        sandbox = buildSandbox(workDir, [this.fixture.buildImage.nodeModules, this.fixture.buildImage.lockfile]);
      } catch (error) {
        unsandboxable = error;
      }
    }
    for (const phase of LEADING_PHASES.slice(1)) {
      this.beginPhase(build, phase);
      if (phase === "PROVISIONING" && unsandboxable) {
        this.failPhase(build, phase, unsandboxable, context);
        this.finish(build, "FAILED");
        return;
      }
      this.endPhase(build.phases.at(-1)!, "SUCCEEDED");
    }
    let status: BuildStatus = "SUCCEEDED";
    try {
      this.beginPhase(build, "DOWNLOAD_SOURCE");
      let buildspec: Buildspec;
      try {
        fs.mkdirSync(scratch, { recursive: true });
        log(`[Container] ${stamp()} CODEBUILD_SRC_DIR=${sandbox?.inside(srcDir) ?? srcDir}`);
        const principal = { kind: "codebuild" as const, project: build.project, buildId: build.id };
        const files = downloadSource(this.objects, context.source.location, srcDir, (request) =>
          this.iam.s3(principal, context.region, request),
        );
        log(`[Container] ${stamp()} Unpacked ${files} source files from s3://${context.source.location}`);
        buildspec = readSourceBuildspec(srcDir, context.project.buildspec);
      } catch (error) {
        this.failPhase(build, "DOWNLOAD_SOURCE", error, context);
        status = "FAILED";
        return;
      }
      this.completePhase(build, "DOWNLOAD_SOURCE", context);
      // "Set to true only if the build project is used to build Docker images" (CodeBuild's ProjectEnvironment,
      // privilegedMode): local mode has no Docker daemon, so it stands in for the image build (image-build-step.ts).
      status = context.project.privilegedMode
        ? this.imageBuild(context, buildspec, srcDir)
        : await this.buildspecBuild(context, buildspec, srcDir, scratch, sandbox!);
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
  private async buildspecBuild(
    context: JobContext,
    buildspec: Buildspec,
    srcDir: string,
    scratch: string,
    sandbox: BuildSandbox,
  ) {
    const { build, log } = context;
    log(`[Container] ${stamp()} ${sandbox.description}`);
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
      env: this.childEnvironment(context, buildspec, srcDir, scratch, sandbox),
      signal: context.signal,
      sandbox,
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
        registryHost: registryHost(LOCAL_ACCOUNT_ID, region),
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

  /** The build's environment (build-environment.ts); what it leaves out is named in the build's log. */
  private childEnvironment(
    context: JobContext,
    buildspec: Buildspec,
    srcDir: string,
    scratch: string,
    sandbox: BuildSandbox,
  ): Record<string, string> {
    const { env, dropped } = buildEnvironment({
      build: context.build,
      buildspec,
      inputs: context.project.inputs,
      variables: {
        ...(this.hfEndpoint ? { HF_ENDPOINT: this.hfEndpoint } : {}),
        ...ownSourceFile(context.env, path.dirname(srcDir), sandbox),
      },
      region: context.region,
      srcDir,
      scratch,
      sourceLocation: context.source.location,
      buildImage: this.fixture.buildImage,
      controlPlaneUrl: this.controlPlaneUrl(),
      credentials: context.credentials,
      inside: (hostPath) => sandbox.inside(hostPath),
    });
    if (dropped.length > 0) {
      context.log(
        `[Container] ${stamp()} Variables this build's buildspec does not read were not passed to it: ${dropped.join(", ")}`,
      );
    }
    return env;
  }

  private beginPhase(build: BuildRecord, phaseType: BuildPhaseType) {
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

/**
 * A local SOURCE_PATH (a file under `<dataDir>/build-sources`) is copied into the build's own directory: on
 * CodeBuild it is a file of the build's container, and the sandbox shows the build nothing of the data directory.
 */
function ownSourceFile(env: Record<string, string>, workDir: string, sandbox: BuildSandbox): Record<string, string> {
  if (!env.SOURCE_PATH || !fs.statSync(env.SOURCE_PATH, { throwIfNoEntry: false })?.isFile()) return env;
  const copy = path.join(workDir, "input", path.basename(env.SOURCE_PATH));
  fs.mkdirSync(path.dirname(copy), { recursive: true });
  fs.copyFileSync(env.SOURCE_PATH, copy, fs.constants.COPYFILE_FICLONE);
  return { ...env, SOURCE_PATH: sandbox.inside(copy) };
}

import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { containedPath } from "../contained-path.ts";
import { exitWithParentArgs } from "../exit-with-parent.mjs";
import { ADAPTER_REPOSITORY, type ImageRegistry, type ImageVariant } from "../image-registry.ts";
import type { AccessKey } from "../local-credentials.ts";
import type { LogStore } from "../log-store.ts";
import { AwsError } from "../wire/aws-error.ts";
import { LOCAL_ACCOUNT_ID } from "../wire/request.ts";
import { packagerEnvironment } from "./build-environment.ts";
import type { BuildPhase, BuildRecord, BuildStatus, BuildStore } from "./build-store.ts";

export const MODEL_PACKAGE_PROJECT = "decision-console-model-package";
export const IMAGE_BUILD_PROJECT = "decision-console-image-build";
/** The bucket local model-packaging builds write to (the IaC stack's artifact bucket on AWS). */
export const LOCAL_ARTIFACT_BUCKET = "decision-console-local";

/** Each project's own environment variables, as the IaC stack would set them on the CodeBuild project. */
export const projectEnvironment: Record<string, Record<string, string>> = {
  [MODEL_PACKAGE_PROJECT]: { ARTIFACT_BUCKET: LOCAL_ARTIFACT_BUCKET, COMPRESSION: "gzip" },
  [IMAGE_BUILD_PROJECT]: { IMAGE_REPOSITORY: ADAPTER_REPOSITORY, IMAGE_VARIANT: "cpu" },
};

const LEADING_PHASES = ["SUBMITTED", "QUEUED", "PROVISIONING", "DOWNLOAD_SOURCE", "INSTALL", "PRE_BUILD"];
const TRAILING_PHASES = ["POST_BUILD", "UPLOAD_ARTIFACTS", "FINALIZING"];

interface JobContext {
  build: BuildRecord;
  env: Record<string, string>;
  region: string;
  log: (line: string) => void;
  signal: AbortSignal;
}

/** A failed build command, reported the way CodeBuild words a failed phase. */
class CommandError extends Error {}

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

/**
 * Runs local CodeBuild builds. Model packaging runs the real packager CLI (`infra/packager/cli.ts`, what the
 * buildspec runs) as a child process against the local S3; image builds, which would need Docker, record the
 * working tree's adapter as an image in the local registry.
 */
export class BuildRunner {
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>();

  constructor(
    private readonly builds: BuildStore,
    private readonly registry: ImageRegistry,
    private readonly logs: LogStore,
    private readonly dataDir: string,
    private readonly repoRoot: string,
    private readonly controlPlaneUrl: () => string,
    /** The keys builds sign their calls back to the control plane with (the `codebuild` principal). */
    private readonly credentials: AccessKey,
    /** Where model-packaging builds fetch Hugging Face files (HF_ENDPOINT); a build's own override wins. */
    private readonly hfEndpoint: string | undefined,
  ) {}

  start(project: string, overrides: { name: string; value: string; type?: string }[], region: string): BuildRecord {
    const uuid = crypto.randomUUID();
    const id = `${project}:${uuid}`;
    const env = { ...(projectEnvironment[project] ?? {}) };
    for (const override of overrides) env[override.name] = override.value;
    if (env.SOURCE_PATH) env.SOURCE_PATH = this.buildSource(env.SOURCE_PATH);
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
    log(`[Container] ${new Date().toISOString()} Running on the local control plane (build ${id})`);
    const done = this.run({ build, env, region, log, signal: abort.signal }).finally(() => this.running.delete(id));
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
    for (const phase of LEADING_PHASES.slice(1)) {
      this.beginPhase(build, phase);
      this.endPhase(build.phases.at(-1)!, "SUCCEEDED");
      log(`[Container] ${new Date().toISOString()} Phase complete: ${phase} State: SUCCEEDED`);
    }
    this.beginPhase(build, "BUILD");
    let status: BuildStatus = "SUCCEEDED";
    try {
      const exported = await this.job(context);
      build.exported = Object.entries(exported).map(([name, value]) => ({ name, value }));
      this.endPhase(build.phases.at(-1)!, "SUCCEEDED");
    } catch (error) {
      status = context.signal.aborted ? "STOPPED" : "FAILED";
      const message =
        error instanceof CommandError ? error.message : `Error while executing the build: ${(error as Error).message}`;
      log(`[Container] ${new Date().toISOString()} ${message}`);
      this.endPhase(build.phases.at(-1)!, status, message, "COMMAND_EXECUTION_ERROR");
    }
    log(`[Container] ${new Date().toISOString()} Phase complete: BUILD State: ${status}`);
    for (const phase of TRAILING_PHASES) {
      this.beginPhase(build, phase);
      this.endPhase(build.phases.at(-1)!, "SUCCEEDED");
    }
    this.finish(build, status);
  }

  private beginPhase(build: BuildRecord, phaseType: string) {
    build.phases.push({ phaseType, startTime: nowSeconds() });
    build.currentPhase = phaseType;
    this.builds.save(build);
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

  private job(context: JobContext): Promise<Record<string, string>> {
    if (context.build.project === MODEL_PACKAGE_PROJECT) return this.packageModel(context);
    if (context.build.project === IMAGE_BUILD_PROJECT) return Promise.resolve(this.buildImage(context));
    return Promise.reject(new CommandError(`The local control plane has no job for project ${context.build.project}.`));
  }

  private buildImage({ build, env, region, log }: JobContext): Record<string, string> {
    const variant = env.IMAGE_VARIANT;
    if (variant !== "cpu" && variant !== "cuda") {
      throw new CommandError(`IMAGE_VARIANT must be cpu or cuda, not "${variant ?? ""}".`);
    }
    log(`Docker is not used locally: recording the working tree's adapter as the ${variant} image.`);
    const image = this.registry.recordAdapterImage(variant as ImageVariant, [
      variant,
      `${variant}-build-${build.number}`,
    ]);
    const uri = `${LOCAL_ACCOUNT_ID}.dkr.ecr.${region}.amazonaws.com/${ADAPTER_REPOSITORY}`;
    log(`pushed ${uri}@${image.digest} (tags ${image.tags.join(", ")})`);
    return {
      IMAGE_DIGEST: image.digest,
      IMAGE_URI: `${uri}@${image.digest}`,
      IMAGE_TAG: `${variant}-build-${build.number}`,
      IMAGE_VARIANT: variant,
    };
  }

  /** Runs `infra/packager/cli.ts` with the build's variables and reads the `export NAME='value'` lines it prints. */
  private packageModel({ build, env, region, log, signal }: JobContext): Promise<Record<string, string>> {
    const cli = path.join(this.repoRoot, "infra", "packager", "cli.ts");
    if (!fs.existsSync(cli)) return Promise.reject(new CommandError(`The packager ${cli} is missing from this tree.`));
    const tsx = pathToFileURL(createRequire(path.join(this.repoRoot, "package.json")).resolve("tsx/esm")).href;
    const workDir = containedPath(this.dataDir, "builds", buildLogStream(build.id));
    fs.mkdirSync(workDir, { recursive: true });
    const job = packagerEnvironment({
      build,
      variables: { ...(this.hfEndpoint ? { HF_ENDPOINT: this.hfEndpoint } : {}), ...env },
      region,
      sourceDir: this.repoRoot,
      workDir,
      controlPlaneUrl: this.controlPlaneUrl(),
      credentials: this.credentials,
    });
    if (job.dropped.length > 0) {
      log(`Variables the packager does not read were not passed to the build: ${job.dropped.join(", ")}`);
    }
    const child = spawn(process.execPath, [...exitWithParentArgs(), "--import", tsx, cli], {
      cwd: this.repoRoot,
      env: job.env,
      stdio: ["ignore", "pipe", "pipe"],
      signal,
    });
    log(`[Container] ${new Date().toISOString()} Running command npx tsx infra/packager/cli.ts`);
    const exported: Record<string, string> = {};
    createInterface({ input: child.stdout }).on("line", (line) => {
      const match = /^export ([A-Z0-9_]+)='(.*)'$/.exec(line);
      if (match?.[1]) exported[match[1]] = (match[2] ?? "").replaceAll(`'"'"'`, "'");
      else log(line);
    });
    createInterface({ input: child.stderr }).on("line", log);
    return new Promise((resolve, reject) => {
      child.on("error", (error) => {
        if (error.name !== "AbortError") reject(error);
      });
      child.on("close", (code, sig) => {
        fs.rmSync(workDir, { recursive: true, force: true });
        if (code === 0) resolve(exported);
        else
          reject(
            new CommandError(
              `Error while executing command: npx tsx infra/packager/cli.ts. Reason: ${sig ? `killed by ${sig}` : `exit status ${code}`}`,
            ),
          );
      });
    });
  }
}

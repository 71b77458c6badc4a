import type { Build as SdkBuild } from "@aws-sdk/client-codebuild";
import type { Build, BuildKind, BuildPhase, BuildStatus, ImageVariant } from "../../contract/builds/builds.ts";

export interface BuildProjects {
  modelPackageProject: string;
  imageBuildProject: string;
}

export function kindOfProject(projectName: string | undefined, projects: BuildProjects): BuildKind | null {
  if (projectName === projects.modelPackageProject) return "model";
  if (projectName === projects.imageBuildProject) return "image";
  return null;
}

/** Every variable the console sets on a build (`buildEnvironment`): what a retry takes back, what a version pins. */
export const CONSOLE_BUILD_VARIABLES = new Set([
  "IMAGE_VARIANT",
  "HF_REPO",
  "HF_REVISION",
  "HF_FILE",
  "GGUF_SHA256",
  "COMPRESSION",
  "TOKENIZER_REPO",
  "TOKENIZER_REVISION",
]);

const statuses = new Set<string>(["IN_PROGRESS", "SUCCEEDED", "FAILED", "FAULT", "STOPPED", "TIMED_OUT"]);

function status(value: string | undefined): BuildStatus | null {
  return value && statuses.has(value) ? (value as BuildStatus) : null;
}

function iso(date: Date | undefined): string | null {
  return date ? date.toISOString() : null;
}

/** CodeBuild's build record as the console shows it: phases, outputs from exported variables, log location. */
export function buildOf(build: SdkBuild, kind: BuildKind): Build {
  const id = build.id ?? "";
  const exported: Record<string, string> = {};
  for (const variable of build.exportedEnvironmentVariables ?? []) {
    if (variable.name) exported[variable.name] = variable.value ?? "";
  }
  const environment = new Map((build.environment?.environmentVariables ?? []).map((v) => [v.name, v.value]));
  const variant = exported.IMAGE_VARIANT ?? environment.get("IMAGE_VARIANT");
  const phases: BuildPhase[] = (build.phases ?? []).map((phase) => ({
    type: phase.phaseType ?? "",
    status: status(phase.phaseStatus),
    startedAt: iso(phase.startTime),
    endedAt: iso(phase.endTime),
    durationSeconds: phase.durationInSeconds ?? null,
    messages: (phase.contexts ?? []).map((c) => [c.statusCode, c.message].filter(Boolean).join(": ")).filter(Boolean),
  }));
  return {
    id,
    kind,
    variant: kind === "image" && (variant === "cpu" || variant === "cuda") ? (variant as ImageVariant) : null,
    projectName: build.projectName ?? "",
    status: status(build.buildStatus) ?? "IN_PROGRESS",
    currentPhase: build.currentPhase ?? null,
    startedAt: iso(build.startTime),
    endedAt: iso(build.endTime),
    phases,
    outputs: {
      modelDataUrl: exported.MODEL_DATA_URL || null,
      modelSha256: exported.MODEL_SHA256 || null,
      modelBytes: /^\d+$/.test(exported.MODEL_BYTES ?? "") ? Number(exported.MODEL_BYTES) : null,
      imageUri: exported.IMAGE_URI || null,
      imageDigest: exported.IMAGE_DIGEST || null,
    },
    exportedVariables: exported,
    inputs: Object.fromEntries(
      [...environment].filter(
        (entry): entry is [string, string] => CONSOLE_BUILD_VARIABLES.has(entry[0] ?? "") && entry[1] !== undefined,
      ),
    ),
    logs: {
      groupName: build.logs?.groupName ?? null,
      streamName: build.logs?.streamName ?? null,
      tailPath: `/api/builds/${encodeURIComponent(id)}/logs`,
    },
    source: build.source?.type ? { type: build.source.type, location: build.source.location ?? null } : null,
  };
}

import type { Build, BuildStatus } from "@/contract/builds/builds.ts";
import { pinnedImageUri } from "@/contract/builds/pinned-image.ts";
import type { Tone } from "../ui/badge.tsx";

export function buildTone(status: BuildStatus | null): Tone {
  if (status === "SUCCEEDED") return "success";
  if (status === "IN_PROGRESS") return "info";
  if (status === null) return "neutral";
  return "danger";
}

/** Succeeded model-packaging builds that wrote a model artifact: what the deploy and batch forms offer. */
export function modelOutputsOf(builds: Build[] | undefined): Build[] {
  return (builds ?? []).filter(
    (build) => build.kind === "model" && build.status === "SUCCEEDED" && build.outputs.modelDataUrl,
  );
}

/**
 * How the deploy and batch forms list a model build's output: its artifact and build, led by the label of the
 * preset whose GGUF it packaged (the sha256 the packager checked), e.g. "SmolLM2-135M-Instruct (demo)".
 */
export function modelOutputLabel(
  build: Build,
  presets: ReadonlyArray<{ label: string; gguf: { sha256: string } }> | undefined,
): string {
  const where = `${build.outputs.modelDataUrl} (build ${build.id.slice(-8)})`;
  const preset = presets?.find((candidate) => candidate.gguf.sha256 === build.outputs.modelSha256);
  return preset ? `${preset.label}: ${where}` : where;
}

/** A file's size as the builds page shows it: GB with two decimals from 1 GB, whole MB below (decimal units). */
export function fileSize(bytes: number): string {
  return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : `${Math.round(bytes / 1e6)} MB`;
}

/** The deploy page prefilled with this build's output. */
export function deployHref(build: Build): string | null {
  const params = new URLSearchParams();
  if (build.kind === "model" && build.outputs.modelDataUrl) {
    params.set("model", build.outputs.modelDataUrl);
    if (build.outputs.modelSha256) params.set("sha256", build.outputs.modelSha256);
    if (build.outputs.modelBytes !== null) params.set("bytes", String(build.outputs.modelBytes));
  }
  const image = build.kind === "image" ? pinnedImageUri(build.outputs) : null;
  if (image) params.set("image", image);
  return params.size > 0 && build.status === "SUCCEEDED" ? `/deploy?${params}` : null;
}

/**
 * A build by what it makes: an image build by its variant, a model build by the model it packages (the GGUF file it
 * exported or was asked for, else the folder it writes to, as the first run's seed builds name `models/seed/<model>`).
 */
export function buildLabel(build: Build): string {
  if (build.kind === "image") return `Image build (${build.variant ?? "?"})`;
  const folder = (path: string | null | undefined) =>
    path
      ?.replace(/\/model\.tar\.gz$/, "")
      .split("/")
      .filter(Boolean)
      .pop();
  const model =
    build.exportedVariables.GGUF_FILE ??
    build.exportedVariables.MODEL_FILE ??
    build.inputs.HF_FILE ??
    folder(build.inputs.ARTIFACT_PREFIX) ??
    folder(build.outputs.modelDataUrl);
  return model ? `Model packaging: ${model}` : "Model packaging";
}

export function duration(startedAt: string | null, endedAt: string | null, now: number = Date.now()): string {
  if (!startedAt) return "—";
  const seconds = Math.round(((endedAt ? Date.parse(endedAt) : now) - Date.parse(startedAt)) / 1000);
  return seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}

/**
 * How long a build phase took, or has taken so far. CodeBuild gives its last phase (COMPLETED) a start and no end,
 * so a phase without an end in a build that has ended ends with the build instead of counting on.
 */
export function phaseDuration(
  phase: { startedAt: string | null; endedAt: string | null },
  build: { endedAt: string | null },
  now: number = Date.now(),
): string {
  return duration(phase.startedAt, phase.endedAt ?? build.endedAt, now);
}

/** How many of the failing command's last output lines the phase summary shows. */
export const FAILURE_LINES = 6;

/**
 * The command whose failure ended a phase, and its last output lines, read from the build's log as CodeBuild
 * writes it: `[Container] … Running command <command>`, the command's own output, then `[Container] …` lines that
 * say it did not exit successfully and that the phase FAILED. Null when the log shows no failed phase.
 */
export function failingCommand(
  lines: readonly string[],
  limit = FAILURE_LINES,
): { command: string; phase: string; lastLines: string[] } | null {
  const failed = lines.findIndex((line) => /^\[Container\] .*Phase complete: \S+ State: FAILED/.test(line));
  if (failed < 0) return null;
  const phase = /Phase complete: (\S+) State/.exec(lines[failed] ?? "")?.[1] ?? "";
  let started = failed - 1;
  while (started >= 0 && !/^\[Container\] .*Running command /.test(lines[started] ?? "")) started -= 1;
  if (started < 0) return null;
  const command = (lines[started] ?? "").replace(/^\[Container\] .*?Running command /, "");
  const output = lines
    .slice(started + 1, failed)
    .filter((line) => !line.startsWith("[Container] ") && line.trim() !== "");
  return { command, phase, lastLines: output.slice(-limit) };
}

export { pinnedImageUri };

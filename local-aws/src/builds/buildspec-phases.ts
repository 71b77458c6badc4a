import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { parse } from "yaml";
import { processGroupCommand } from "../process-group.mjs";
import type { BuildSandbox } from "./build-sandbox.ts";
import { PhaseError } from "./build-source.ts";
import { BUILDSPEC_PHASES, type Buildspec } from "./buildspec.ts";

export type PhaseType = (typeof BUILDSPEC_PHASES)[number][1];

export type { Buildspec };

/**
 * Reads the buildspec from the source at the path the project names, failing as CodeBuild does in
 * DOWNLOAD_SOURCE (`YAML_FILE_ERROR`) when it is missing or not a version 0.2 buildspec.
 */
export function readSourceBuildspec(srcDir: string, buildspecPath: string): Buildspec {
  const file = path.join(srcDir, buildspecPath);
  if (!fs.existsSync(file)) throw new PhaseError("YAML_FILE_ERROR", `stat ${file}: no such file or directory`);
  let buildspec: Buildspec;
  try {
    buildspec = parse(fs.readFileSync(file, "utf8")) as Buildspec;
  } catch (error) {
    throw new PhaseError("YAML_FILE_ERROR", `${(error as Error).message} in ${buildspecPath}`);
  }
  if (String(buildspec?.version) !== "0.2") {
    throw new PhaseError("YAML_FILE_ERROR", `invalid buildspec version ${String(buildspec?.version)}, expected 0.2`);
  }
  for (const [name] of BUILDSPEC_PHASES) {
    for (const command of buildspec.phases?.[name]?.commands ?? []) {
      // An unquoted `: ` turns a command into a YAML mapping, which CodeBuild refuses too.
      if (typeof command !== "string") {
        throw new PhaseError(
          "YAML_FILE_ERROR",
          `phases.${name}.commands: expected a string, got ${JSON.stringify(command)}`,
        );
      }
    }
  }
  return buildspec;
}

export interface PhaseEvents {
  phaseStarted(phase: PhaseType): void;
  /** `failure` is the phase context message when a command failed. */
  phaseEnded(phase: PhaseType, failure?: string): void;
  commandStarted(command: string): void;
  output(line: string): void;
}

export interface PhaseRun {
  failed: boolean;
  exported: Record<string, string>;
}

/**
 * Runs a buildspec's phases the way CodeBuild's buildspec 0.2 does: every command of every phase in one bash shell
 * (variables carry over), a failing command fails its phase, a failed INSTALL or PRE_BUILD skips the later phases,
 * POST_BUILD runs after a failed BUILD, and `exported-variables` are read once the phases are done. The shell and
 * everything it starts form one process group, which ends when the build is stopped, when the shell is done, and
 * when the control plane dies.
 */
export async function runBuildspecPhases(
  buildspec: Buildspec,
  options: {
    cwd: string;
    scratch: string;
    env: Record<string, string>;
    signal: AbortSignal;
    events: PhaseEvents;
    /** Where the shell runs (build-sandbox.ts); the paths it is given are the sandbox's. */
    sandbox: BuildSandbox;
  },
): Promise<PhaseRun> {
  const { scratch, events, sandbox } = options;
  const marker = `@@local-codebuild-${randomUUID()}`;
  const commands: string[] = [];
  const lines = ["set -o pipefail", "__cb_failed=", "__cb_build_failed="];
  for (const [name, phase] of BUILDSPEC_PHASES) {
    const phaseCommands = (buildspec.phases?.[name]?.commands ?? []) as string[];
    if (phaseCommands.length === 0) continue;
    const gate =
      phase === "POST_BUILD" ? '[ -z "$__cb_failed" ]' : '[ -z "$__cb_failed" ] && [ -z "$__cb_build_failed" ]';
    lines.push(`if ${gate}; then echo "${marker} start ${phase}"`);
    for (const command of phaseCommands) {
      const index = commands.push(command) - 1;
      const file = path.join(scratch, `command-${index}.sh`);
      fs.writeFileSync(file, command);
      const failVar = phase === "BUILD" ? "__cb_build_failed" : "__cb_failed";
      lines.push(
        `  if [ -z "$${failVar}" ]; then echo "${marker} command ${index}"; . ${JSON.stringify(sandbox.inside(file))} || ${failVar}="${index} $?"; fi`,
      );
    }
    const failVar = phase === "BUILD" ? "__cb_build_failed" : "__cb_failed";
    lines.push(`  echo "${marker} end ${phase} $${failVar}"`, "fi");
  }
  const exportedFile = path.join(scratch, "exported");
  for (const name of buildspec.env?.["exported-variables"] ?? []) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new PhaseError("YAML_FILE_ERROR", `invalid exported variable ${name}`);
    lines.push(
      `if [ -n "\${${name}+set}" ]; then printf '%s=%s\\0' ${name} "$${name}" >> ${JSON.stringify(sandbox.inside(exportedFile))}; fi`,
    );
  }
  lines.push('[ -z "$__cb_failed" ] && [ -z "$__cb_build_failed" ]');

  sandbox.handOver();
  const sandboxed = sandbox.command("bash", ["-c", lines.join("\n")], options.cwd);
  const shell = processGroupCommand(sandboxed.file, sandboxed.args);
  const child = spawn(shell.file, shell.args, {
    cwd: options.cwd,
    env: options.env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
    signal: options.signal,
  });
  let current: PhaseType | undefined;
  let failed = false;
  const reason = (index: string | undefined, status: string | undefined) =>
    `Error while executing command: ${commands[Number(index)] ?? "?"}. Reason: exit status ${status ?? "?"}`;
  createInterface({ input: child.stdout }).on("line", (line) => {
    if (!line.startsWith(`${marker} `)) return events.output(line);
    const [kind, argument, index, status] = line.slice(marker.length + 1).split(" ");
    if (kind === "start") {
      current = argument as PhaseType;
      events.phaseStarted(current);
    } else if (kind === "command") {
      events.commandStarted(commands[Number(argument)] ?? "");
    } else if (kind === "end") {
      const failure = index ? reason(index, status) : undefined;
      if (failure) failed = true;
      events.phaseEnded(argument as PhaseType, failure);
      current = undefined;
    }
  });
  createInterface({ input: child.stderr }).on("line", (line) => events.output(line));
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    // A stopped build ends once its process group has: the close that follows the abort resolves.
    child.on("error", (error) => {
      if (error.name !== "AbortError") reject(error);
    });
    child.on("close", (code) => resolve(options.signal.aborted ? null : code));
  });
  if (current) {
    // A command ended the shell itself (`exit`), or the build was stopped: the running phase fails.
    failed = true;
    events.phaseEnded(current, options.signal.aborted ? "Build was stopped" : `Shell exited with status ${exitCode}`);
  }
  const exported: Record<string, string> = {};
  const raw = readExportedFile(exportedFile);
  for (const entry of raw.split("\0").filter(Boolean)) {
    const at = entry.indexOf("=");
    exported[entry.slice(0, at)] = entry.slice(at + 1);
  }
  return { failed: failed || exitCode !== 0, exported };
}

/**
 * The exported variables the shell wrote, read once every process of the build has ended. The build owned its
 * scratch directory: a link put in place of the file (or of the directory) is not followed, as the control plane
 * may read what the build could not.
 */
function readExportedFile(file: string): string {
  const dir = fs.lstatSync(path.dirname(file), { throwIfNoEntry: false });
  const entry = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!dir?.isDirectory() || !entry?.isFile()) return "";
  return fs.readFileSync(file, "utf8");
}

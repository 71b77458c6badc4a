import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";

export type PhaseName = "install" | "pre_build" | "build" | "post_build";

export interface Buildspec {
  version: number | string;
  env?: { shell?: string; variables?: Record<string, string>; "exported-variables"?: string[] };
  phases: Partial<Record<PhaseName, { "runtime-versions"?: Record<string, unknown>; commands?: string[] }>>;
}

export async function readBuildspec(path: string): Promise<Buildspec> {
  return parse(await readFile(path, "utf8")) as Buildspec;
}

export interface BuildspecRun {
  exitCode: number;
  output: string;
  /** The `exported-variables` as CodeBuild reports them after the build (set ones only). */
  exported: Record<string, string>;
}

/**
 * Runs a buildspec's commands the way CodeBuild's buildspec 0.2 does: one bash shell for every command of every
 * phase (variables carry over), a failing command ends the build, variables from `env.variables` are
 * overridden by the project's/StartBuild's (`env`), and the exported variables are read at the end.
 */
export async function runBuildspec(
  buildspec: Buildspec,
  options: { cwd: string; env: Record<string, string>; phases: PhaseName[] },
): Promise<BuildspecRun> {
  const scratch = await mkdtemp(join(tmpdir(), "codebuild-"));
  try {
    const lines = ["set -o pipefail"];
    let index = 0;
    for (const phase of options.phases) {
      for (const command of buildspec.phases[phase]?.commands ?? []) {
        // A `: ` inside an unquoted command turns it into a YAML mapping, which CodeBuild rejects as well.
        if (typeof command !== "string")
          throw new Error(`${phase} has a command that is not a string: ${JSON.stringify(command)}`);
        const file = join(scratch, `command-${index++}.sh`);
        await writeFile(file, command);
        lines.push(`. ${JSON.stringify(file)} || exit $?`);
      }
    }
    const exportedFile = join(scratch, "exported");
    for (const name of buildspec.env?.["exported-variables"] ?? []) {
      lines.push(
        `if [ -n "\${${name}+set}" ]; then printf '%s=%s\\0' ${name} "$${name}" >> ${JSON.stringify(exportedFile)}; fi`,
      );
    }
    const env = { ...(buildspec.env?.variables ?? {}), ...options.env };
    const child = spawn("bash", ["-c", lines.join("\n")], {
      cwd: options.cwd,
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exitCode = await new Promise<number>((resolve) => child.on("close", (code) => resolve(code ?? 1)));
    const exported: Record<string, string> = {};
    const raw = await readFile(exportedFile, "utf8").catch(() => "");
    for (const entry of raw.split("\0").filter(Boolean)) {
      const at = entry.indexOf("=");
      exported[entry.slice(0, at)] = entry.slice(at + 1);
    }
    return { exitCode, output, exported };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

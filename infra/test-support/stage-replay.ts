import { spawn } from "node:child_process";
import { cp, mkdir, stat } from "node:fs/promises";
import { dirname, join, posix } from "node:path";
import { type DockerStage, keyValues } from "./dockerfile.ts";

/** What a stand-in for a RUN instruction gets: the stage's working directory and ENV, as paths on this machine. */
export interface RunContext {
  /** The RUN instruction's command, as written. */
  command: string;
  /** Maps a container path (absolute, or relative to WORKDIR) to this machine. */
  path: (containerPath: string) => string;
  cwd: string;
  env: Record<string, string>;
}

/**
 * How one RUN instruction is replayed: `"as written"` runs it in `sh -c` in the stage's WORKDIR, with the stage's
 * ENV and this Node.js first on PATH; a function stands in for one that cannot run here (a package manager, a path
 * outside the stage), saying so by its `why`.
 */
export type RunReplay = { matches: RegExp; why: string } & (
  | { asWritten: true }
  | { standIn: (run: RunContext) => Promise<void> }
);

export interface StageReplay {
  /** The stage's filesystem on this machine: container path `/x` is `<root>/x`. */
  root: string;
  /** The build context: its folder and the files Docker would send (contextFiles). */
  context: { dir: string; files: readonly string[] };
  /** Earlier stages' roots, by name, for `COPY --from=<name>`. */
  stages?: Record<string, string>;
  /** Every RUN of the stage must match one of these; the first that matches replays it. */
  runs: readonly RunReplay[];
}

async function copyInto(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  await cp(from, to, { recursive: true, force: true, verbatimSymlinks: true });
}

function runAsWritten(command: string, cwd: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", command], {
      cwd,
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`RUN ${command} exited ${code}:\n${output.slice(-4000)}`)),
    );
  });
}

/**
 * Lays out what a Dockerfile stage builds, without Docker: WORKDIR, ENV, COPY from the context or an earlier stage
 * (a folder's contents, a file, into a folder when the destination ends in `/` or there are several sources) and
 * each RUN as `runs` says. Instructions that only describe the image (USER, EXPOSE, HEALTHCHECK, ENTRYPOINT, CMD)
 * change no file and are left to containerStart.
 */
export async function replayStage(stage: DockerStage, replay: StageReplay): Promise<void> {
  let workdir = "/";
  const env: Record<string, string> = {};
  const onMachine = (containerPath: string) => join(replay.root, posix.resolve(workdir, containerPath));
  for (const instruction of stage.instructions) {
    if (instruction.keyword === "WORKDIR") {
      workdir = posix.resolve(workdir, instruction.args);
      await mkdir(onMachine("."), { recursive: true });
    } else if (instruction.keyword === "ENV") {
      Object.assign(env, Object.fromEntries(keyValues(instruction.args)));
    } else if (instruction.keyword === "COPY") {
      const words = instruction.args.split(/\s+/);
      const from = words.find((word) => word.startsWith("--from="))?.slice("--from=".length);
      const [destination = ".", ...sources] = words.filter((word) => !word.startsWith("--")).reverse();
      sources.reverse();
      const intoFolder = destination.endsWith("/") || sources.length > 1;
      for (const source of sources) {
        const target = (name: string) => (intoFolder ? join(onMachine(destination), name) : onMachine(destination));
        if (from !== undefined) {
          const stageRoot = replay.stages?.[from];
          if (!stageRoot) throw new Error(`COPY --from=${from}: no earlier stage of that name was replayed`);
          const path = join(stageRoot, source);
          const isFolder = (await stat(path)).isDirectory();
          await copyInto(path, isFolder ? onMachine(destination) : target(posix.basename(source)));
        } else {
          const prefix = posix.normalize(source).replace(/^\.$/, "").replace(/\/$/, "");
          const files = replay.context.files.filter(
            (file) => !prefix || file === prefix || file.startsWith(`${prefix}/`),
          );
          if (files.length === 0) throw new Error(`COPY ${source}: nothing in the build context`);
          for (const file of files) {
            const inside = file === prefix ? posix.basename(file) : file.slice(prefix ? prefix.length + 1 : 0);
            const to = file === prefix && !intoFolder ? onMachine(destination) : join(onMachine(destination), inside);
            await copyInto(join(replay.context.dir, file), to);
          }
        }
      }
    } else if (instruction.keyword === "RUN") {
      const entry = replay.runs.find((run) => run.matches.test(instruction.args));
      if (!entry) throw new Error(`line ${instruction.line}: no replay for RUN ${instruction.args}`);
      const cwd = onMachine(".");
      if ("asWritten" in entry) {
        const path = [dirname(process.execPath), process.env.PATH ?? ""].join(":");
        await runAsWritten(instruction.args, cwd, { ...env, PATH: path, HOME: process.env.HOME ?? "/root" });
      } else {
        await entry.standIn({ command: instruction.args, path: onMachine, cwd, env });
      }
    }
  }
}

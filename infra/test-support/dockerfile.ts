import { readFileSync } from "node:fs";

export interface DockerInstruction {
  keyword: string;
  args: string;
  line: number;
}

export interface DockerStage {
  /** The FROM argument with global ARG defaults substituted. */
  from: string;
  name: string | undefined;
  instructions: DockerInstruction[];
}

export interface Dockerfile {
  globalArgs: Map<string, string>;
  stages: DockerStage[];
}

/** Joins `\` continuations and drops comments, keeping the line where each instruction starts. */
function instructions(text: string): DockerInstruction[] {
  const result: DockerInstruction[] = [];
  let pending: { parts: string[]; line: number } | undefined;
  text.split("\n").forEach((raw, index) => {
    const trimmed = raw.trim();
    if (pending === undefined && (trimmed === "" || trimmed.startsWith("#"))) return;
    if (pending !== undefined && trimmed.startsWith("#")) return;
    const continues = trimmed.endsWith("\\");
    const part = continues ? trimmed.slice(0, -1).trim() : trimmed;
    pending ??= { parts: [], line: index + 1 };
    pending.parts.push(part);
    if (!continues) {
      const joined = pending.parts.filter(Boolean).join(" ");
      const [keyword = ""] = joined.split(/\s+/);
      result.push({ keyword: keyword.toUpperCase(), args: joined.slice(keyword.length).trim(), line: pending.line });
      pending = undefined;
    }
  });
  return result;
}

function substitute(value: string, args: Map<string, string>): string {
  return value.replace(
    /\$\{(\w+)\}|\$(\w+)/g,
    (match, braced: string, bare: string) => args.get(braced ?? bare) ?? match,
  );
}

/** Reads `NAME=value` pairs (quoted or not) of ENV and ARG. */
export function keyValues(args: string): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const match of args.matchAll(/(\w+)=("([^"]*)"|'([^']*)'|(\S*))/g)) {
    pairs.set(match[1]!, match[3] ?? match[4] ?? match[5] ?? "");
  }
  return pairs;
}

export function parseDockerfile(path: string): Dockerfile {
  const globalArgs = new Map<string, string>();
  const stages: DockerStage[] = [];
  for (const instruction of instructions(readFileSync(path, "utf8"))) {
    if (instruction.keyword === "FROM") {
      const [image = "", as, name] = instruction.args.split(/\s+/);
      stages.push({
        from: substitute(image, globalArgs),
        name: as?.toUpperCase() === "AS" ? name : undefined,
        instructions: [],
      });
    } else if (stages.length === 0 && instruction.keyword === "ARG") {
      const [name = "", ...value] = instruction.args.split("=");
      globalArgs.set(name, value.join("="));
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return { globalArgs, stages };
}

export interface ContainerStart {
  /** ENTRYPOINT then CMD, exec form. */
  command: string[];
  workdir: string;
  env: Record<string, string>;
  /** USER, as written (`uid:gid`, a name); absent: root. */
  user?: string;
  /** HEALTHCHECK's command, exec form; absent: none. */
  healthcheck?: string[];
  /** Every path a VOLUME instruction of the final stage declares (JSON array or plain form). */
  volumes: string[];
}

/** What `docker run <image>` starts in the final stage: the exec-form entrypoint, its directory and environment. */
export function containerStart(dockerfile: Dockerfile): ContainerStart {
  const final = dockerfile.stages.at(-1);
  if (!final) throw new Error("Dockerfile has no FROM");
  const last = (keyword: string) => final.instructions.filter((i) => i.keyword === keyword).at(-1)?.args;
  const execForm = (keyword: string, args = last(keyword)): string[] => {
    if (args === undefined) return [];
    const parsed: unknown = JSON.parse(args);
    if (!Array.isArray(parsed)) throw new Error(`${keyword} must use the exec (JSON array) form`);
    return parsed.map(String);
  };
  const healthcheck = last("HEALTHCHECK")?.match(/(?:^|\s)CMD\s+(.*)$/)?.[1];
  const user = last("USER");
  const env: Record<string, string> = {};
  for (const instruction of final.instructions.filter((i) => i.keyword === "ENV")) {
    for (const [name, value] of keyValues(instruction.args)) env[name] = value;
  }
  const volumes = final.instructions
    .filter((i) => i.keyword === "VOLUME")
    .flatMap((i) => (i.args.startsWith("[") ? execForm("VOLUME", i.args) : i.args.split(/\s+/)));
  return {
    command: [...execForm("ENTRYPOINT"), ...execForm("CMD")],
    workdir: last("WORKDIR") ?? "/",
    env,
    volumes,
    ...(user ? { user } : {}),
    ...(healthcheck ? { healthcheck: execForm("HEALTHCHECK", healthcheck) } : {}),
  };
}

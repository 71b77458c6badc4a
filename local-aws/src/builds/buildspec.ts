/**
 * Local CodeBuild's own reading of a buildspec, from the CodeBuild User Guide's "Build specification reference"
 * (version 0.2): `env.shell`, `env.variables` (plain-text variables, overridden by the build's environment),
 * `env.exported-variables`, and the `install`, `pre_build`, `build` and `post_build` phases with their `commands`.
 */
export interface Buildspec {
  version?: number | string;
  env?: { shell?: string; variables?: Record<string, unknown>; "exported-variables"?: string[] };
  phases?: Record<string, { "runtime-versions"?: Record<string, unknown>; commands?: unknown[] } | undefined>;
}

/** The buildspec phases CodeBuild runs, in order, with the names its phase timeline uses. */
export const BUILDSPEC_PHASES = [
  ["install", "INSTALL"],
  ["pre_build", "PRE_BUILD"],
  ["build", "BUILD"],
  ["post_build", "POST_BUILD"],
] as const;

/** "Environment variables in build environments": `$NAME` and `${NAME}` as bash expands them, for known names. */
function expand(command: string, variables: Record<string, string>): string {
  return command.replace(/\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))/g, (whole, braced?: string, bare?: string) => {
    const value = variables[(braced ?? bare) as string];
    return value === undefined ? whole : value;
  });
}

/**
 * The Dockerfile each `docker build` command names with `-f`/`--file` (Docker CLI reference, `docker build`),
 * after the build's variables are expanded, in the order the phases run them.
 */
export function dockerBuildFiles(buildspec: Buildspec, variables: Record<string, string>): string[] {
  const files: string[] = [];
  for (const [phase] of BUILDSPEC_PHASES) {
    for (const command of buildspec.phases?.[phase]?.commands ?? []) {
      if (typeof command !== "string") continue;
      const words = expand(command, variables)
        .split(/\s+/)
        .map((word) => word.replace(/^"(.*)"$/, "$1"));
      const start = words.findIndex((word, i) => word === "docker" && words[i + 1] === "build");
      if (start < 0) continue;
      for (let i = start + 2; i < words.length; i++) {
        const word = words[i] as string;
        if ((word === "-f" || word === "--file") && words[i + 1]) files.push(words[i + 1] as string);
        else if (word.startsWith("--file=")) files.push(word.slice("--file=".length));
      }
    }
  }
  return files;
}

/**
 * The build-context sources of a Dockerfile's `COPY` and `ADD` instructions (Dockerfile reference): instructions
 * are case-insensitive, `\` continues a line, `#` starts a comment line, `--from=` copies from a stage or image
 * (not the context), other `--flags` are options, and the last path is the destination. Both the shell form and
 * the JSON array form are read.
 */
export function contextSources(dockerfile: string): string[] {
  const sources: string[] = [];
  const lines = dockerfile
    .split(/\r?\n/)
    .filter((line) => !/^\s*#/.test(line))
    .join("\n")
    .replace(/\\[ \t]*\r?\n/g, " ")
    .split("\n");
  for (const line of lines) {
    const instruction = /^\s*(copy|add)\s+(.+)$/i.exec(line);
    if (!instruction) continue;
    let rest = (instruction[2] as string).trim();
    let fromStage = false;
    while (rest.startsWith("--")) {
      const flag = /^--(\S+)\s*/.exec(rest) as RegExpExecArray;
      if ((flag[1] as string).startsWith("from=")) fromStage = true;
      rest = rest.slice(flag[0].length);
    }
    if (fromStage) continue;
    const paths = rest.startsWith("[") ? (JSON.parse(rest) as string[]) : rest.split(/\s+/);
    for (const source of paths.slice(0, -1)) sources.push(source.replace(/^\.\//, "").replace(/\/$/, "") || ".");
  }
  return sources;
}

import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { BUILDSPEC_PATHS } from "../../contract/stack/console-contract.ts";
/** What decides a build's sources: its kind, and for an image build the variant (the Dockerfile). */
export type BuildSourceRequest = { kind: "model" } | { kind: "image"; variant: string };

/**
 * Which files a build reads from its source archive, derived from what its buildspec runs: the buildspec itself;
 * `npm install` reads the root package files and the workspaces' package.json; `npx tsx <script>` reads the script
 * and every module it imports; `docker build -f <Dockerfile>` reads the Dockerfile, its `.dockerignore` and every
 * `COPY`/`ADD` source from the build context. So a new COPY or import is uploaded without anyone listing it.
 */

/** A buildspec 0.2 as far as the console and local CodeBuild read it. */
export interface Buildspec {
  version?: number | string;
  env?: { shell?: string; variables?: Record<string, unknown>; "exported-variables"?: string[] };
  phases?: Record<string, { "runtime-versions"?: Record<string, unknown>; commands?: unknown[] } | undefined>;
}

const skipped = new Set(["node_modules", "dist", ".turbo"]);

function commandsOf(buildspec: Buildspec): string[] {
  return Object.values(buildspec.phases ?? {}).flatMap((phase) =>
    (phase?.commands ?? []).filter((c): c is string => typeof c === "string"),
  );
}

/** `${NAME}` / `$NAME` from the build's variables (the buildspec's defaults, then the StartBuild overrides). */
function substitute(text: string, variables: Record<string, string>): string {
  return text.replace(
    /\$\{(\w+)\}|\$(\w+)/g,
    (match, braced: string, bare: string) => variables[braced ?? bare] ?? match,
  );
}

function walk(root: string, relative: string, into: Set<string>) {
  const absolute = path.join(root, relative);
  if (!fs.existsSync(absolute)) return;
  if (fs.statSync(absolute).isDirectory()) {
    for (const entry of fs.readdirSync(absolute).sort()) {
      if (!skipped.has(entry)) walk(root, path.posix.join(relative, entry), into);
    }
  } else {
    into.add(relative);
  }
}

const IMPORT =
  /(?:import|export)\s[^"';]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|import\s+["']([^"']+)["']/g;

/** A script and the relative modules it imports, transitively (packages come from the build's `npm install`). */
function importClosure(root: string, entry: string, into: Set<string>) {
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (into.has(file) || !fs.existsSync(path.join(root, file))) continue;
    into.add(file);
    const source = fs.readFileSync(path.join(root, file), "utf8");
    for (const match of source.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3] ?? "";
      if (specifier.startsWith("."))
        pending.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)));
    }
  }
}

/** Every build-context path a Dockerfile's COPY/ADD instructions read (not `--from` stage copies). */
export function dockerfileSources(text: string): string[] {
  const sources: string[] = [];
  const joined = text.replace(/\\\r?\n/g, " ");
  for (const line of joined.split(/\r?\n/)) {
    const match = /^\s*(COPY|ADD)\s+(.*)$/i.exec(line);
    if (!match?.[2]) continue;
    const words = match[2].trim().split(/\s+/);
    if (words.some((word) => word.startsWith("--from="))) continue;
    const paths = words.filter((word) => !word.startsWith("--"));
    const items = paths[0]?.startsWith("[") ? (JSON.parse(paths.join(" ")) as string[]) : paths;
    sources.push(...items.slice(0, -1).map((item) => item.replace(/^\.\//, "").replace(/\/$/, "")));
  }
  return sources;
}

/** The paths (files and folders) a Dockerfile build reads: itself, its .dockerignore, its COPY sources. */
function dockerBuildInputs(root: string, dockerfile: string, into: Set<string>) {
  into.add(dockerfile);
  if (fs.existsSync(path.join(root, `${dockerfile}.dockerignore`))) into.add(`${dockerfile}.dockerignore`);
  for (const source of dockerfileSources(fs.readFileSync(path.join(root, dockerfile), "utf8")))
    walk(root, source, into);
}

function npmInstallInputs(root: string, into: Set<string>) {
  into.add("package.json");
  into.add("package-lock.json");
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { workspaces?: string[] };
  for (const workspace of manifest.workspaces ?? []) into.add(path.posix.join(workspace, "package.json"));
}

/** The variables a buildspec's commands see, as far as the console knows them: its defaults and the overrides. */
export function buildVariables(buildspec: Buildspec, overrides: Record<string, string>): Record<string, string> {
  const defaults = Object.fromEntries(
    Object.entries(buildspec.env?.variables ?? {}).map(([name, value]) => [name, String(value)]),
  );
  return { ...defaults, ...overrides };
}

/** The Dockerfiles a buildspec builds (`docker build -f <path>`), with the build's variables substituted. */
export function dockerfilesOf(buildspec: Buildspec, variables: Record<string, string>): string[] {
  return commandsOf(buildspec).flatMap((command) =>
    [...substitute(command, variables).matchAll(/\bdocker build\b[^\n]*?-f\s+"?([^"\s]+)"?/g)].map(
      (m) => m[1] as string,
    ),
  );
}

export function readBuildspec(root: string, buildspecPath: string): Buildspec {
  return parse(fs.readFileSync(path.join(root, buildspecPath), "utf8")) as Buildspec;
}

/** The files (sorted, repository-relative, `/`-separated) the build of this request reads from its source. */
export function buildSourceFiles(root: string, request: BuildSourceRequest): string[] {
  const buildspecPath = BUILDSPEC_PATHS[request.kind];
  const buildspec = readBuildspec(root, buildspecPath);
  const variables = buildVariables(buildspec, request.kind === "image" ? { IMAGE_VARIANT: request.variant } : {});
  const files = new Set<string>([buildspecPath]);
  for (const command of commandsOf(buildspec)) {
    const text = substitute(command, variables);
    if (/\bnpm (install|ci)\b/.test(text)) npmInstallInputs(root, files);
    for (const match of text.matchAll(/\b(?:npx\s+)?tsx\s+([\w./-]+\.ts)\b/g))
      importClosure(root, match[1] as string, files);
  }
  for (const dockerfile of dockerfilesOf(buildspec, variables)) dockerBuildInputs(root, dockerfile, files);
  return [...files].filter((file) => fs.existsSync(path.join(root, file))).sort();
}

import { normalisedResourcePrefix } from "../../contract/stack/console-contract.ts";
import type { ConsoleConfig } from "../config.ts";
import { AppError } from "../http/app-error.ts";
import { matchesPattern } from "./policy.ts";

/**
 * What this console may act on, as its IAM policy allows: SageMaker resources (endpoints, their models and configs,
 * transform jobs, model package groups) named with CONSOLE_RESOURCE_PREFIX, and builds of its two CodeBuild projects.
 */
export interface ManagedScope {
  /** Lower case; null: any name. */
  prefix: string | null;
  buildProjects: { model: string; image: string };
}

export type ScopeSettings = Pick<
  ConsoleConfig,
  "CONSOLE_RESOURCE_PREFIX" | "CODEBUILD_MODEL_PROJECT" | "CODEBUILD_IMAGE_PROJECT"
>;

export function managedScope(settings: ScopeSettings): ManagedScope {
  return {
    prefix: normalisedResourcePrefix(settings.CONSOLE_RESOURCE_PREFIX),
    buildProjects: { model: settings.CODEBUILD_MODEL_PROJECT, image: settings.CODEBUILD_IMAGE_PROJECT },
  };
}

export type ManagedKind = "sagemaker" | "build";

/** A name a request refers to, and where in the request it is (a body field; none for the path). */
export interface NameReference {
  kind: ManagedKind;
  name: string | undefined;
  field?: string;
}

/** SageMaker ARNs carry names in lower case, so `DC-x` is the console's when the prefix is `dc-`. */
export function isManagedName(name: string, prefix: string | null): boolean {
  return prefix === null || name.toLowerCase().startsWith(prefix);
}

/** A build id is `<project>:<build>`; an id with no project is not refused here (its route says what an id is). */
function isManagedBuild(id: string, projects: ManagedScope["buildProjects"]): boolean {
  const project = id.includes(":") ? id.slice(0, id.indexOf(":")) : null;
  return project === null || project === projects.model || project === projects.image;
}

/** The 403 for the first reference outside the scope, or null when every one is inside it. */
export function unmanagedReference(references: readonly NameReference[], scope: ManagedScope): AppError | null {
  for (const { kind, name, field } of references) {
    if (name === undefined) continue;
    const where = field ? `${field}: ` : "";
    if (kind === "sagemaker" && !isManagedName(name, scope.prefix)) {
      return new AppError(
        "forbidden",
        `${where}${name} is not managed by this console: it manages names starting with ${scope.prefix}.`,
      );
    }
    if (kind === "build" && !isManagedBuild(name, scope.buildProjects)) {
      const { model, image } = scope.buildProjects;
      return new AppError(
        "forbidden",
        `${where}${name} is not a build of this console: it runs builds of ${model} and ${image}.`,
      );
    }
  }
  return null;
}

/** Throws the 403 of `unmanagedReference`: for names in a request body, before any AWS call. */
export function requireManaged(references: readonly NameReference[], scope: ManagedScope): void {
  const refused = unmanagedReference(references, scope);
  if (refused) throw refused;
}

/** The routes whose path names a resource: every route at or under each of these patterns. */
const namingRoutes: readonly { pattern: string; param: number; kind: ManagedKind }[] = [
  { pattern: "/api/endpoints/[name]", param: 2, kind: "sagemaker" },
  { pattern: "/api/batch/[name]", param: 2, kind: "sagemaker" },
  { pattern: "/api/builds/[id]", param: 2, kind: "build" },
  { pattern: "/api/models/[group]", param: 2, kind: "sagemaker" },
];

/** The resource an API path names, decoded, if its route is one of those that name one. */
export function pathReference(pathname: string): NameReference | null {
  const segments = pathname.split("/").filter(Boolean);
  for (const { pattern, param, kind } of namingRoutes) {
    const depth = pattern.split("/").filter(Boolean).length;
    if (segments.length < depth || !matchesPattern(pattern, `/${segments.slice(0, depth).join("/")}`)) continue;
    return { kind, name: decodeURIComponent(segments[param]!) };
  }
  return null;
}

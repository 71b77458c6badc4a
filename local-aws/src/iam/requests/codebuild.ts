import type { AuthorizationQuery } from "../evaluate.ts";
import { type OperationAuthorization, type RequestFacts, str } from "./facts.ts";

function projectArn(facts: RequestFacts, project: string): string {
  return `arn:aws:codebuild:${facts.region}:${facts.accountId}:project/${project}`;
}

/** A build id is `<project>:<uuid>`; IAM authorises build operations on the build's project. */
function projectOfBuild(id: string): string {
  return id.split(":")[0] ?? id;
}

function onProjects(action: string, projects: string[], facts: RequestFacts): AuthorizationQuery[] {
  return [...new Set(projects)].map((project) => ({ action, resource: projectArn(facts, project), context: {} }));
}

const ids = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v) => typeof v === "string") : []);

/** CodeBuild: every build operation is authorised on the project the build belongs to. */
export const codeBuildAuthorization: Record<string, OperationAuthorization> = {
  StartBuild: (input, facts) => onProjects("codebuild:StartBuild", [str(input.projectName)], facts),
  StopBuild: (input, facts) => onProjects("codebuild:StopBuild", [projectOfBuild(str(input.id))], facts),
  BatchGetBuilds: (input, facts) => onProjects("codebuild:BatchGetBuilds", ids(input.ids).map(projectOfBuild), facts),
  ListBuildsForProject: (input, facts) => onProjects("codebuild:ListBuildsForProject", [str(input.projectName)], facts),
  ListBuilds: () => [{ action: "codebuild:ListBuilds", resource: "*", context: {} }],
  BatchGetProjects: (input, facts) => onProjects("codebuild:BatchGetProjects", ids(input.names), facts),
};

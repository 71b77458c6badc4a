import type { Served } from "../wire/served-members.ts";

/**
 * The members of each CodeBuild operation the local control plane acts on; any other member of the service model
 * is refused with CodeBuild's InvalidInputException (wire/served-members.ts). StartBuild builds the project as it
 * is defined, from an S3 source, with extra environment variables: every other override (buildspec, image,
 * compute type, timeouts, service role, secondary sources, ...) is refused, never ignored.
 */
export const codeBuildServedMembers: Record<string, Served> = {
  StartBuild: {
    projectName: "served",
    environmentVariablesOverride: "served",
    sourceTypeOverride: "served",
    sourceLocationOverride: "served",
  },
  StopBuild: "served",
  BatchGetBuilds: "served",
  ListBuildsForProject: "served",
  ListBuilds: "served",
  BatchGetProjects: "served",
};

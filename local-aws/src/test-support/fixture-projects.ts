import { testStackFixture } from "./stack-fixture.ts";

/** The name of the fixture's CodeBuild project that runs `buildspec`, as the synthesised stack defines it. */
function projectRunning(buildspec: string): string {
  const project = testStackFixture().stack.projects.find((candidate) => candidate.buildspec === buildspec);
  if (!project) throw new Error(`the stack fixture has no project running ${buildspec}`);
  return project.name;
}

/** The stack's two CodeBuild projects, for tests that start builds. */
export const FIXTURE_PROJECTS = {
  modelPackage: projectRunning("infra/buildspecs/model-package.yml"),
  imageBuild: projectRunning("infra/buildspecs/image-build.yml"),
} as const;

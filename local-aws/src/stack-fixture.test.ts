import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BatchGetProjectsCommand, CodeBuildClient } from "@aws-sdk/client-codebuild";
import { DescribeImagesCommand, DescribeRepositoriesCommand, ECRClient } from "@aws-sdk/client-ecr";
import { HeadBucketCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ControlPlane, startControlPlane } from "./control-plane.ts";
import { imageDigest, imageSourceHash } from "./image-registry.ts";
import { localAwsEnvironment, localClientConfig } from "./stack.ts";
import type { LocalStackFixture } from "./stack-fixture.ts";
import { testStackFixture } from "./test-support/stack-fixture.ts";

/**
 * The control plane stands in for the stack its caller describes, and for nothing of its own: another bucket,
 * another image repository with its own sources and program, and the stack's roles come from the fixture.
 */
let dataDir: string;
let plane: ControlPlane;
let fixture: LocalStackFixture;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-aws-fixture-"));
  const sourceRoot = path.join(dataDir, "team-sources");
  fs.mkdirSync(path.join(sourceRoot, "server"), { recursive: true });
  fs.writeFileSync(path.join(sourceRoot, "server", "main.js"), "console.log('team server');\n");
  const standard = testStackFixture();
  fixture = {
    ...standard,
    bucket: "team-artifacts",
    imageRepositories: [
      {
        name: "team-server",
        contract: "adapter",
        programs: {
          cpu: { args: [path.join(sourceRoot, "server", "main.js")], cwd: sourceRoot },
          cuda: { args: [path.join(sourceRoot, "server", "main.js")], cwd: sourceRoot },
        },
        sourceRoot,
        sources: ["server"],
      },
    ],
  };
  plane = await startControlPlane({ fixture, dataDir: path.join(dataDir, "aws"), port: 0, waitForEndpoints: false });
});

afterAll(async () => {
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("a control plane started with a fixture", () => {
  it("holds the fixture's bucket and no other", async () => {
    const s3 = new S3Client({ ...localClientConfig(plane), forcePathStyle: true });
    await expect(s3.send(new HeadBucketCommand({ Bucket: "team-artifacts" }))).resolves.toBeDefined();
    await expect(s3.send(new HeadBucketCommand({ Bucket: testStackFixture().bucket }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 404 },
    });
    expect(localAwsEnvironment(plane).CONSOLE_ARTIFACT_BUCKET).toBe("team-artifacts");
  });

  it("serves the fixture's repositories, their base images hashing the fixture's sources", async () => {
    const ecr = new ECRClient(localClientConfig(plane));
    const { repositories } = await ecr.send(new DescribeRepositoriesCommand({}));
    expect(repositories?.map((repository) => repository.repositoryName)).toEqual(["team-server"]);
    const { hash } = imageSourceHash(path.join(dataDir, "team-sources"), ["server"]);
    const { imageDetails } = await ecr.send(
      new DescribeImagesCommand({ repositoryName: "team-server", imageIds: [{ imageTag: "cpu" }] }),
    );
    expect(imageDetails?.[0]?.imageDigest).toBe(imageDigest("team-server", hash, "cpu"));
    expect(plane.registry.program("team-server", "cpu").program.cwd).toBe(path.join(dataDir, "team-sources"));
  });

  it("runs the fixture's CodeBuild projects and hands out its execution role", async () => {
    const codeBuild = new CodeBuildClient(localClientConfig(plane));
    const names = fixture.stack.projects.map((project) => project.name);
    const { projects, projectsNotFound } = await codeBuild.send(
      new BatchGetProjectsCommand({ names: [...names, "not-in-the-stack"] }),
    );
    expect(projects?.map((project) => project.name)).toEqual(names);
    expect(projectsNotFound).toEqual(["not-in-the-stack"]);
    expect(plane.executionRoleArn).toBe(
      `arn:aws:iam::000000000000:role/DecisionConsole-${fixture.stack.executionRole}`,
    );
    expect(localAwsEnvironment(plane).SAGEMAKER_EXECUTION_ROLE_ARN).toBe(plane.executionRoleArn);
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  CreateEndpointCommand,
  CreateEndpointConfigCommand,
  CreateModelCommand,
  CreateModelPackageCommand,
  type CreateModelPackageCommandInput,
  CreateModelPackageGroupCommand,
  DeleteModelPackageCommand,
  DescribeEndpointCommand,
  DescribeModelCommand,
  DescribeModelPackageCommand,
  DescribeModelPackageGroupCommand,
  ListModelPackageGroupsCommand,
  ListModelPackagesCommand,
  ListTagsCommand,
  SageMakerClient,
  UpdateModelPackageCommand,
} from "@aws-sdk/client-sagemaker";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ControlPlane, startControlPlane } from "../control-plane.ts";
import { localClientConfig } from "../stack.ts";
import { localAdapterImageUri } from "../test-support/adapter-image.ts";
import { testStackFixture, writeTinyModel } from "../test-support/stack-fixture.ts";
import { LOCAL_ACCOUNT_ID } from "../wire/request.ts";

/**
 * Local SageMaker's Model Registry through the SDK: groups, numbered versions with their metrics and metadata,
 * approval, and a deployment from a version. The calls are made as admin (who may also make other teams' groups); the
 * stack's console policy grants the console the registry on its prefix only, which the first test checks.
 */
let dataDir: string;
let plane: ControlPlane;
let registry: SageMakerClient;
let console_: SageMakerClient;
let admin: SageMakerClient;
let modelDataUrl: string;
const consoleArn = `arn:aws:iam::${LOCAL_ACCOUNT_ID}:user/decision-console`;
const groupArn = (name: string) => `arn:aws:sagemaker:us-east-1:${LOCAL_ACCOUNT_ID}:model-package-group/${name}`;
const versionArn = (group: string, version: number) =>
  `arn:aws:sagemaker:us-east-1:${LOCAL_ACCOUNT_ID}:model-package/${group}/${version}`;

const version = (
  group: string,
  extra: Partial<CreateModelPackageCommandInput> = {},
): CreateModelPackageCommandInput => ({
  ModelPackageGroupName: group,
  ModelPackageDescription: "router build 7",
  InferenceSpecification: {
    Containers: [
      { Image: localAdapterImageUri(plane), ModelDataUrl: modelDataUrl, Environment: { ADAPTER_THREADS: "1" } },
    ],
    SupportedContentTypes: ["application/json"],
    SupportedResponseMIMETypes: ["application/json"],
  },
  ModelMetrics: {
    ModelQuality: {
      Statistics: { ContentType: "application/json", S3Uri: `s3://${plane.bucket}/evaluations/run-1.json` },
    },
  },
  MetadataProperties: {
    CommitId: "0123abc",
    Repository: "decision-console",
    GeneratedBy: "decision-console-model-package:build-7",
  },
  CustomerMetadataProperties: { "dataset-sha256": "9f2c", "evaluation-run": "run-1" },
  ...extra,
});

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-model-registry-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0, waitForEndpoints: false });
  console_ = new SageMakerClient(localClientConfig(plane, "console"));
  admin = new SageMakerClient(localClientConfig(plane, "admin"));
  // The team that registers models here: admin, so other teams' groups and tags can be made as well.
  registry = admin;
  const staging = path.join(dataDir, "staging");
  writeTinyModel(path.join(staging, "model.gguf"));
  const archive = path.join(dataDir, "model.tar.gz");
  await tar.c({ gzip: true, file: archive, cwd: staging }, ["model.gguf"]);
  await plane.objects.putObject(plane.bucket, "models/dc-router/model.tar.gz", fs.readFileSync(archive));
  modelDataUrl = `s3://${plane.bucket}/models/dc-router/model.tar.gz`;
});

afterAll(async () => {
  expect(plane.traffic.failed).toBe(0);
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the console's policy", () => {
  it("grants the Model Registry on the console's prefix only, and no deletion", async () => {
    const created = await console_.send(
      new CreateModelPackageGroupCommand({ ModelPackageGroupName: "dc-console-check" }),
    );
    expect(created.ModelPackageGroupArn).toBe(groupArn("dc-console-check"));
    await expect(
      console_.send(new CreateModelPackageGroupCommand({ ModelPackageGroupName: "team-b-router" })),
    ).rejects.toMatchObject({
      name: "AccessDeniedException",
      message: `User: ${consoleArn} is not authorized to perform: sagemaker:CreateModelPackageGroup on resource: ${groupArn("team-b-router")} because no identity-based policy allows the sagemaker:CreateModelPackageGroup action`,
    });
    await expect(console_.send(new ListModelPackagesCommand({}))).resolves.toBeDefined();
    await expect(
      console_.send(
        new DeleteModelPackageCommand({
          ModelPackageName: `${groupArn("dc-console-check").replace("model-package-group", "model-package")}/1`,
        }),
      ),
    ).rejects.toMatchObject({ name: "AccessDeniedException" });
  });
});

describe("model package groups", () => {
  it("are created, described, listed and tagged", async () => {
    const created = await registry.send(
      new CreateModelPackageGroupCommand({
        ModelPackageGroupName: "dc-router",
        ModelPackageGroupDescription: "ticket router",
      }),
    );
    expect(created.ModelPackageGroupArn).toBe(groupArn("dc-router"));
    await expect(
      registry.send(new CreateModelPackageGroupCommand({ ModelPackageGroupName: "dc-router" })),
    ).rejects.toMatchObject({
      name: "ValidationException",
      message: `Model Package Group already exists: ${groupArn("dc-router")}`,
    });
    await admin.send(
      new CreateModelPackageGroupCommand({
        ModelPackageGroupName: "team-b-models",
        Tags: [{ Key: "team", Value: "b" }],
      }),
    );
    const described = await registry.send(new DescribeModelPackageGroupCommand({ ModelPackageGroupName: "dc-router" }));
    expect(described).toMatchObject({
      ModelPackageGroupStatus: "Completed",
      ModelPackageGroupDescription: "ticket router",
    });
    const listed = await registry.send(new ListModelPackageGroupsCommand({ SortBy: "Name", SortOrder: "Descending" }));
    expect(listed.ModelPackageGroupSummaryList?.map((group) => group.ModelPackageGroupName)).toEqual([
      "team-b-models",
      "dc-router",
      "dc-console-check",
    ]);
    const tags = await admin.send(new ListTagsCommand({ ResourceArn: groupArn("team-b-models") }));
    expect(tags.Tags).toEqual([{ Key: "team", Value: "b" }]);
  });

  it("refuses what the service model or the API reference refuses, and what local mode does not serve", async () => {
    await expect(
      registry.send(new CreateModelPackageGroupCommand({ ModelPackageGroupName: "dc-bad name" })),
    ).rejects.toMatchObject({
      name: "ValidationException",
      message: expect.stringContaining("at 'modelPackageGroupName'"),
    });
    await expect(
      registry.send(
        new CreateModelPackageGroupCommand({
          ModelPackageGroupName: "dc-managed",
          ManagedConfiguration: { ManagedStorageType: "Restricted" },
        }),
      ),
    ).rejects.toMatchObject({ name: "ValidationException", message: expect.stringContaining("ManagedConfiguration") });
  });
});

describe("model versions", () => {
  it("are numbered from 1 in their group, carry their metrics and metadata, and start pending approval", async () => {
    const first = await registry.send(new CreateModelPackageCommand(version("dc-router")));
    const second = await registry.send(new CreateModelPackageCommand(version("dc-router", { ClientToken: "build-8" })));
    expect([first.ModelPackageArn, second.ModelPackageArn]).toEqual([
      versionArn("dc-router", 1),
      versionArn("dc-router", 2),
    ]);
    const again = await registry.send(new CreateModelPackageCommand(version("dc-router", { ClientToken: "build-8" })));
    expect(again.ModelPackageArn).toBe(versionArn("dc-router", 2));
    const described = await registry.send(
      new DescribeModelPackageCommand({ ModelPackageName: versionArn("dc-router", 1) }),
    );
    expect(described).toMatchObject({
      ModelPackageGroupName: "dc-router",
      ModelPackageVersion: 1,
      ModelPackageStatus: "Completed",
      ModelApprovalStatus: "PendingManualApproval",
      ModelMetrics: { ModelQuality: { Statistics: { S3Uri: `s3://${plane.bucket}/evaluations/run-1.json` } } },
      MetadataProperties: { CommitId: "0123abc" },
      CustomerMetadataProperties: { "dataset-sha256": "9f2c", "evaluation-run": "run-1" },
    });
    expect(described.CreationTime).toBeInstanceOf(Date);
  });

  it("are listed by group and approval status, in pages", async () => {
    const all = await registry.send(
      new ListModelPackagesCommand({ ModelPackageGroupName: "dc-router", SortOrder: "Descending" }),
    );
    expect(all.ModelPackageSummaryList?.map((summary) => summary.ModelPackageVersion)).toEqual([2, 1]);
    const pageOne = await registry.send(
      new ListModelPackagesCommand({ ModelPackageGroupName: "dc-router", MaxResults: 1 }),
    );
    expect(pageOne.ModelPackageSummaryList?.map((summary) => summary.ModelPackageVersion)).toEqual([1]);
    const pageTwo = await registry.send(
      new ListModelPackagesCommand({ ModelPackageGroupName: "dc-router", MaxResults: 1, NextToken: pageOne.NextToken }),
    );
    expect(pageTwo.ModelPackageSummaryList?.map((summary) => summary.ModelPackageVersion)).toEqual([2]);
    const approved = await registry.send(
      new ListModelPackagesCommand({ ModelPackageGroupName: "dc-router", ModelApprovalStatus: "Approved" }),
    );
    expect(approved.ModelPackageSummaryList).toEqual([]);
    const unversioned = await registry.send(new ListModelPackagesCommand({}));
    expect(unversioned.ModelPackageSummaryList).toEqual([]);
  });

  it("are approved or rejected with a description, and an unknown status is refused by the service model", async () => {
    await registry.send(
      new UpdateModelPackageCommand({
        ModelPackageArn: versionArn("dc-router", 1),
        ModelApprovalStatus: "Approved",
        ApprovalDescription: "JevBench accuracy 0.81, ECE 0.04",
      }),
    );
    await registry.send(
      new UpdateModelPackageCommand({ ModelPackageArn: versionArn("dc-router", 2), ModelApprovalStatus: "Rejected" }),
    );
    const first = await registry.send(
      new DescribeModelPackageCommand({ ModelPackageName: versionArn("dc-router", 1) }),
    );
    expect(first).toMatchObject({
      ModelApprovalStatus: "Approved",
      ApprovalDescription: "JevBench accuracy 0.81, ECE 0.04",
    });
    expect(first.LastModifiedTime).toBeInstanceOf(Date);
    await expect(
      registry.send(
        new UpdateModelPackageCommand({
          ModelPackageArn: versionArn("dc-router", 1),
          ModelApprovalStatus: "Approve" as never,
        }),
      ),
    ).rejects.toMatchObject({
      name: "ValidationException",
      message: expect.stringContaining(
        "at 'modelApprovalStatus' failed to satisfy constraint: Member must satisfy enum value set",
      ),
    });
  });

  it("refuses unversioned packages, a missing group and unserved specifications", async () => {
    const { ModelPackageGroupName: _group, ...unversioned } = version("dc-router");
    await expect(
      registry.send(new CreateModelPackageCommand({ ...unversioned, ModelPackageName: "dc-router-v1" })),
    ).rejects.toMatchObject({
      name: "ValidationException",
      message: expect.stringContaining("Unversioned model packages"),
    });
    await expect(
      registry.send(new CreateModelPackageCommand({ ...version("dc-router"), ModelPackageName: "dc-router-v1" })),
    ).rejects.toMatchObject({
      message: expect.stringContaining("ModelPackageName is not applicable to versioned models"),
    });
    await expect(registry.send(new CreateModelPackageCommand(version("dc-nowhere")))).rejects.toMatchObject({
      message: `Model Package Group ${groupArn("dc-nowhere")} does not exist.`,
    });
    await expect(
      registry.send(
        new CreateModelPackageCommand({
          ...version("dc-router"),
          SourceAlgorithmSpecification: { SourceAlgorithms: [{ AlgorithmName: "xgboost" }] },
        }),
      ),
    ).rejects.toMatchObject({ message: expect.stringContaining("SourceAlgorithmSpecification is not served") });
    await expect(
      registry.send(
        new CreateModelPackageCommand({ ...version("dc-router"), CustomerMetadataProperties: { "bad;key": "x" } }),
      ),
    ).rejects.toMatchObject({
      name: "ValidationException",
      message: expect.stringContaining("customerMetadataProperties"),
    });
  });

  it("are deleted, and their numbers are not given again", async () => {
    const third = await registry.send(new CreateModelPackageCommand(version("dc-router")));
    expect(third.ModelPackageArn).toBe(versionArn("dc-router", 3));
    await registry.send(new DeleteModelPackageCommand({ ModelPackageName: versionArn("dc-router", 3) }));
    await expect(
      registry.send(new DescribeModelPackageCommand({ ModelPackageName: versionArn("dc-router", 3) })),
    ).rejects.toMatchObject({ message: `ModelPackage ${versionArn("dc-router", 3)} does not exist.` });
    const fourth = await registry.send(new CreateModelPackageCommand(version("dc-router")));
    expect(fourth.ModelPackageArn).toBe(versionArn("dc-router", 4));
  });
});

describe("a model from a version", () => {
  const fromVersion = (name: string, arn: string) =>
    new CreateModelCommand({
      ModelName: name,
      ExecutionRoleArn: plane.executionRoleArn,
      EnableNetworkIsolation: true,
      PrimaryContainer: { ModelPackageName: arn },
    });

  it("is refused unless the version is Approved", async () => {
    for (const [number, status] of [
      [2, "Rejected"],
      [4, "PendingManualApproval"],
    ] as const) {
      await expect(
        registry.send(fromVersion(`dc-router-v${number}`, versionArn("dc-router", number))),
      ).rejects.toMatchObject({
        name: "ValidationException",
        message: `Model package ${versionArn("dc-router", number)} has ModelApprovalStatus ${status}; a model version must be Approved to deploy it.`,
      });
    }
    await expect(
      registry.send(
        new CreateModelCommand({
          ModelName: "dc-router-mixed",
          ExecutionRoleArn: plane.executionRoleArn,
          PrimaryContainer: { ModelPackageName: versionArn("dc-router", 1), Image: localAdapterImageUri(plane) },
        }),
      ),
    ).rejects.toMatchObject({
      message: expect.stringContaining("takes its Image and model data from the model package"),
    });
  });

  it("runs the approved version's image and artifact on an endpoint", async () => {
    await registry.send(fromVersion("dc-router-v1", versionArn("dc-router", 1)));
    const model = await registry.send(new DescribeModelCommand({ ModelName: "dc-router-v1" }));
    expect(model.PrimaryContainer).toMatchObject({
      ModelPackageName: versionArn("dc-router", 1),
      Image: localAdapterImageUri(plane),
      ModelDataUrl: modelDataUrl,
      Environment: { ADAPTER_THREADS: "1" },
    });
    await registry.send(
      new CreateEndpointConfigCommand({
        EndpointConfigName: "dc-router-v1",
        ProductionVariants: [
          {
            VariantName: "AllTraffic",
            ModelName: "dc-router-v1",
            InstanceType: "ml.c6i.large",
            InitialInstanceCount: 1,
          },
        ],
      }),
    );
    await registry.send(
      new CreateEndpointCommand({ EndpointName: "dc-router-v1", EndpointConfigName: "dc-router-v1" }),
    );
    await plane.endpoints.settled("dc-router-v1");
    const endpoint = await registry.send(new DescribeEndpointCommand({ EndpointName: "dc-router-v1" }));
    expect([endpoint.EndpointStatus, endpoint.FailureReason]).toEqual(["InService", undefined]);
  }, 120_000);
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { CodeBuildClient, StartBuildCommand } from "@aws-sdk/client-codebuild";
import {
  BatchGetImageCommand,
  DescribeImagesCommand,
  DescribeRepositoriesCommand,
  ECRClient,
  ListImagesCommand,
} from "@aws-sdk/client-ecr";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import {
  CreateEndpointCommand,
  CreateEndpointConfigCommand,
  CreateModelCommand,
  DeleteEndpointCommand,
  DescribeEndpointCommand,
  ListEndpointsCommand,
  SageMakerClient,
} from "@aws-sdk/client-sagemaker";
import { Upload } from "@aws-sdk/lib-storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ControlPlane, startControlPlane } from "./control-plane.ts";
import { hasNvidiaGpu } from "./endpoints/gpu.ts";
import { SHORT_CAPACITY_TAG } from "./endpoints/instance-pools.ts";
import { imageDigest, imageSourceHash } from "./image-registry.ts";
import { localClientConfig } from "./stack.ts";
import { FIXTURE_PROJECTS } from "./test-support/fixture-projects.ts";
import { testExecutionRoleArn, testStackFixture } from "./test-support/stack-fixture.ts";

const LOCAL_ARTIFACT_BUCKET = testStackFixture().bucket;

const bucket = LOCAL_ARTIFACT_BUCKET;
const role = testExecutionRoleArn();
let dataDir: string;
let plane: ControlPlane;
let s3: S3Client;
let sageMaker: SageMakerClient;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-aws-"));
  plane = await startControlPlane({ fixture: testStackFixture(), dataDir, port: 0 });
  s3 = new S3Client({ ...localClientConfig(plane), forcePathStyle: true });
  sageMaker = new SageMakerClient(localClientConfig(plane));
});

afterAll(async () => {
  await plane?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function endpointAfterProvisioning(name: string) {
  await plane.endpoints.settled(name);
  return sageMaker.send(new DescribeEndpointCommand({ EndpointName: name }));
}

async function createEndpoint(name: string, image: string, variant: Record<string, unknown>, tags = {}) {
  await sageMaker.send(
    new CreateModelCommand({
      ModelName: name,
      ExecutionRoleArn: role,
      EnableNetworkIsolation: true,
      PrimaryContainer: { Image: image, ModelDataUrl: `s3://${bucket}/missing/model.tar.gz` },
    }),
  );
  await sageMaker.send(
    new CreateEndpointConfigCommand({
      EndpointConfigName: name,
      ProductionVariants: [{ VariantName: "AllTraffic", ModelName: name, InitialInstanceCount: 1, ...variant }],
      Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value: String(Value) })),
    }),
  );
  await sageMaker.send(new CreateEndpointCommand({ EndpointName: name, EndpointConfigName: name }));
  return endpointAfterProvisioning(name);
}

const registryHost = "000000000000.dkr.ecr.us-east-1.amazonaws.com";

describe("local S3", () => {
  it("stores and returns objects, including aws-chunked streamed bodies", async () => {
    await s3.send(
      new PutObjectCommand({ Bucket: bucket, Key: "docs/a.txt", Body: "plain body", ContentType: "text/plain" }),
    );
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: "docs/b.txt",
        Body: Readable.from([Buffer.from("streamed "), Buffer.from("in parts")]),
        ContentLength: 17,
      }),
    );
    const plain = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: "docs/a.txt" }));
    expect(await plain.Body!.transformToString()).toBe("plain body");
    expect(plain.ContentType).toBe("text/plain");
    const streamed = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: "docs/b.txt" }));
    expect(await streamed.Body!.transformToString()).toBe("streamed in parts");
    const range = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: "docs/b.txt", Range: "bytes=9-" }));
    expect(await range.Body!.transformToString()).toBe("in parts");
  });

  it("reassembles a lib-storage multipart upload with a multipart ETag", async () => {
    const body = Buffer.alloc(11 * 1024 * 1024);
    for (let i = 0; i < body.length; i++) body[i] = (i * 31) % 251;
    const result = await new Upload({
      client: s3,
      params: { Bucket: bucket, Key: "big/model.bin", Body: body },
    }).done();
    expect(result.ETag).toMatch(/^"[0-9a-f]{32}-3"$/);
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: "big/model.bin" }));
    expect(head.ContentLength).toBe(body.length);
    const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: "big/model.bin" }));
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(body)).toBe(true);
  });

  it("discards an aborted multipart upload", async () => {
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: "aborted.bin" }));
    const part = await s3.send(
      new UploadPartCommand({ Bucket: bucket, Key: "aborted.bin", UploadId, PartNumber: 1, Body: Buffer.from("part") }),
    );
    await s3.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: "aborted.bin", UploadId }));
    await expect(
      s3.send(
        new CompleteMultipartUploadCommand({
          Bucket: bucket,
          Key: "aborted.bin",
          UploadId,
          MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] },
        }),
      ),
    ).rejects.toMatchObject({ name: "NoSuchUpload" });
    await expect(s3.send(new HeadObjectCommand({ Bucket: bucket, Key: "aborted.bin" }))).rejects.toMatchObject({
      name: "NotFound",
    });
  });

  it("lists keys in pages and groups them by delimiter", async () => {
    for (const key of ["list/1", "list/2", "list/3", "list/sub/4"]) {
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: key }));
    }
    const first = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: "list/", MaxKeys: 2 }));
    expect(first.Contents?.map((c) => c.Key)).toEqual(["list/1", "list/2"]);
    expect(first.IsTruncated).toBe(true);
    const second = await s3.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: "list/", ContinuationToken: first.NextContinuationToken }),
    );
    expect(second.Contents?.map((c) => c.Key)).toEqual(["list/3", "list/sub/4"]);
    expect(second.IsTruncated).toBe(false);
    const grouped = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: "list/", Delimiter: "/" }));
    expect(grouped.CommonPrefixes?.map((p) => p.Prefix)).toEqual(["list/sub/"]);
    expect(grouped.KeyCount).toBe(4);
  });

  it("answers missing keys and buckets with S3's error codes", async () => {
    await expect(s3.send(new GetObjectCommand({ Bucket: bucket, Key: "nope" }))).rejects.toMatchObject({
      name: "NoSuchKey",
    });
    await expect(s3.send(new GetObjectCommand({ Bucket: "no-such-bucket", Key: "x" }))).rejects.toMatchObject({
      name: "NoSuchBucket",
    });
  });
});

describe("wire rules", () => {
  it("refuses a request that carries no SigV4 Authorization header", async () => {
    const response = await fetch(plane.url, {
      method: "POST",
      headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": "SageMaker.ListEndpoints" },
      body: "{}",
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ __type: "MissingAuthenticationTokenException" });
  });

  it("throttles beyond the configured request rate", async () => {
    const throttledDir = fs.mkdtempSync(path.join(os.tmpdir(), "local-aws-throttle-"));
    const limited = await startControlPlane({
      fixture: testStackFixture(),
      dataDir: throttledDir,
      port: 0,
      maxRequestsPerSecond: 2,
    });
    const ecr = new ECRClient(localClientConfig(limited));
    try {
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, () => ecr.send(new DescribeRepositoriesCommand({}))),
      );
      const rejected = results.filter((r) => r.status === "rejected") as PromiseRejectedResult[];
      // Five calls span at most two one-second windows of two calls each.
      expect(rejected.length).toBeGreaterThanOrEqual(1);
      for (const r of rejected)
        expect(r.reason).toMatchObject({ name: "ThrottlingException", message: "Rate exceeded" });
    } finally {
      await limited.close();
      fs.rmSync(throttledDir, { recursive: true, force: true });
    }
  });
});

describe("local ECR and CodeBuild", () => {
  const ecr = () => new ECRClient(localClientConfig(plane));
  const codeBuild = () => new CodeBuildClient(localClientConfig(plane));

  it("holds decision-adapter with cpu and cuda tags whose digests hash the adapter sources", async () => {
    const adapter = testStackFixture().imageRepositories.find((repository) => repository.name === "decision-adapter")!;
    const { hash } = imageSourceHash(adapter.sourceRoot, adapter.sources);
    const { imageDetails } = await ecr().send(
      new DescribeImagesCommand({
        repositoryName: "decision-adapter",
        imageIds: [{ imageTag: "cpu" }, { imageTag: "cuda" }],
      }),
    );
    expect(imageDetails?.map((d) => d.imageDigest)).toEqual([
      imageDigest("decision-adapter", hash, "cpu"),
      imageDigest("decision-adapter", hash, "cuda"),
    ]);
    await expect(ecr().send(new DescribeRepositoriesCommand({ repositoryNames: ["other"] }))).rejects.toMatchObject({
      name: "RepositoryNotFoundException",
    });
  });

  it("pages images by maxResults and nextToken, filters ListImages by tag status, and refuses what it does not serve", async () => {
    const tagged = await ecr().send(
      new ListImagesCommand({ repositoryName: "decision-adapter", filter: { tagStatus: "TAGGED" } }),
    );
    const ids = tagged.imageIds ?? [];
    expect(ids.length).toBeGreaterThanOrEqual(2);
    const first = await ecr().send(new DescribeImagesCommand({ repositoryName: "decision-adapter", maxResults: 1 }));
    expect(first.imageDetails).toHaveLength(1);
    expect(first.nextToken).toBeDefined();
    const rest = await ecr().send(
      new DescribeImagesCommand({ repositoryName: "decision-adapter", nextToken: first.nextToken }),
    );
    expect(rest.imageDetails?.map((d) => d.imageDigest)).not.toContain(first.imageDetails?.[0]?.imageDigest);
    await expect(
      ecr().send(
        new DescribeImagesCommand({ repositoryName: "decision-adapter", filter: { imageStatus: "ARCHIVED" } }),
      ),
    ).rejects.toMatchObject({
      name: "InvalidParameterException",
      message: "filter.imageStatus is not served by the local control plane.",
    });
    await expect(
      ecr().send(
        new DescribeImagesCommand({
          repositoryName: "decision-adapter",
          imageIds: [{ imageTag: "cpu" }],
          maxResults: 5,
        }),
      ),
    ).rejects.toMatchObject({ name: "InvalidParameterException" });
    await expect(
      ecr().send(
        new BatchGetImageCommand({
          repositoryName: "decision-adapter",
          imageIds: [{ imageTag: "cpu" }],
          acceptedMediaTypes: ["application/vnd.oci.image.manifest.v1+json"],
        }),
      ),
    ).rejects.toMatchObject({
      name: "InvalidParameterException",
      message: expect.stringMatching(/^acceptedMediaTypes without /),
    });
  });

  it("refuses a model-packaging build whose SOURCE_PATH is outside the local build sources", async () => {
    for (const value of ["/etc/passwd", path.join(dataDir, "local-aws", "credentials"), "../local-aws/credentials"]) {
      await expect(
        codeBuild().send(
          new StartBuildCommand({
            projectName: FIXTURE_PROJECTS.modelPackage,
            environmentVariablesOverride: [{ name: "SOURCE_PATH", value }],
          }),
        ),
      ).rejects.toMatchObject({ name: "InvalidInputException", message: expect.stringContaining("SOURCE_PATH must") });
    }
  });
});

describe("local SageMaker control plane", () => {
  it("answers unknown endpoints and duplicates with SageMaker's messages", async () => {
    await expect(sageMaker.send(new DescribeEndpointCommand({ EndpointName: "ghost" }))).rejects.toMatchObject({
      name: "ValidationException",
      message: 'Could not find endpoint "ghost".',
    });
    await expect(
      sageMaker.send(
        new CreateEndpointConfigCommand({
          EndpointConfigName: "orphan",
          ProductionVariants: [
            {
              VariantName: "AllTraffic",
              ModelName: "ghost-model",
              InstanceType: "ml.c6i.2xlarge",
              InitialInstanceCount: 1,
            },
          ],
        }),
      ),
    ).rejects.toMatchObject({
      name: "ValidationException",
      message: 'Could not find model "arn:aws:sagemaker:us-east-1:000000000000:model/ghost-model".',
    });
    await expect(
      sageMaker.send(
        new CreateModelCommand({ ModelName: "bad_name", PrimaryContainer: { Image: "x" }, ExecutionRoleArn: role }),
      ),
    ).rejects.toMatchObject({
      name: "ValidationException",
      message: expect.stringContaining("regular expression pattern"),
    });
  });

  it("fails an endpoint whose image digest the registry does not hold, as for an unpullable image", async () => {
    const image = `${registryHost}/decision-adapter@sha256:${"0".repeat(64)}`;
    const endpoint = await createEndpoint("unknown-digest", image, { InstanceType: "ml.c6i.2xlarge" });
    expect(endpoint.EndpointStatus).toBe("Failed");
    expect(endpoint.FailureReason).toContain(`Failed to pull the container image "${image}"`);
  });

  it("fails an endpoint when every instance pool is short of capacity, naming the pools", async () => {
    const digest = plane.registry.digestForTag("decision-adapter", "cpu");
    const endpoint = await createEndpoint(
      "no-capacity",
      `${registryHost}/decision-adapter@${digest}`,
      {
        InstancePools: [
          { InstanceType: "ml.g6e.xlarge", Priority: 1 },
          { InstanceType: "ml.g5.2xlarge", Priority: 2 },
        ],
      },
      { [SHORT_CAPACITY_TAG]: "ml.g6e.xlarge ml.g5.2xlarge" },
    );
    expect(endpoint.EndpointStatus).toBe("Failed");
    expect(endpoint.FailureReason).toMatch(/insufficient capacity.*ml\.g6e\.xlarge, ml\.g5\.2xlarge/);
  });

  it.skipIf(hasNvidiaGpu())("fails a CUDA image endpoint on a machine without a GPU, saying why", async () => {
    const digest = plane.registry.digestForTag("decision-adapter", "cuda");
    const endpoint = await createEndpoint("cuda-here", `${registryHost}/decision-adapter@${digest}`, {
      InstanceType: "ml.g6e.xlarge",
    });
    expect(endpoint.EndpointStatus).toBe("Failed");
    expect(endpoint.FailureReason).toMatch(/asks for CUDA .* no NVIDIA GPU/);
  });

  it("lists every endpoint across pages and deletes one", async () => {
    const names: string[] = [];
    let token: string | undefined;
    do {
      const page = await sageMaker.send(
        new ListEndpointsCommand({ MaxResults: 1, NextToken: token, SortBy: "Name", SortOrder: "Ascending" }),
      );
      names.push(...(page.Endpoints ?? []).map((e) => e.EndpointName!));
      token = page.NextToken;
    } while (token);
    expect(names).toEqual(expect.arrayContaining(["no-capacity", "unknown-digest"]));
    expect([...names].sort()).toEqual(names);
    await sageMaker.send(new DeleteEndpointCommand({ EndpointName: "unknown-digest" }));
    await plane.endpoints.settled("unknown-digest");
    await expect(sageMaker.send(new DescribeEndpointCommand({ EndpointName: "unknown-digest" }))).rejects.toMatchObject(
      {
        name: "ValidationException",
      },
    );
  });
});

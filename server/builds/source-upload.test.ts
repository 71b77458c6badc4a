import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HeadObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { mockClient } from "aws-sdk-client-mock";
import "aws-sdk-client-mock-vitest/extend";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { collectSourceFiles, uploadBuildSources } from "./source-upload.ts";

const s3 = mockClient(S3Client);
const client = new S3Client({ region: "us-east-1", credentials: { accessKeyId: "t", secretAccessKey: "t" } });
let root: string;

function write(relative: string, text: string) {
  fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
  fs.writeFileSync(path.join(root, relative), text);
}

describe("build source upload", () => {
  beforeEach(() => {
    s3.reset();
    root = fs.mkdtempSync(path.join(os.tmpdir(), "sources-"));
    write("package.json", "{}");
    write("adapter/src/cli.ts", "serve();");
    write("adapter/node_modules/big/index.js", "skip me");
    write("infra/docker/Dockerfile.cpu", "FROM node");
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it("collects the sources without node_modules", () => {
    expect(collectSourceFiles(root, ["package.json", "adapter", "infra/docker", "missing"])).toEqual([
      "package.json",
      "adapter/src/cli.ts",
      "infra/docker/Dockerfile.cpu",
    ]);
  });

  it("uploads every file under a content-addressed prefix and returns CodeBuild's S3 folder location", async () => {
    s3.on(HeadObjectCommand).rejects(Object.assign(new Error("Not Found"), { name: "NotFound" }));
    s3.on(PutObjectCommand).resolves({});
    const uploaded = await uploadBuildSources(client, "artifacts", root);
    expect(uploaded.location).toBe(`artifacts/build-sources/${uploaded.digest}/`);
    const keys = s3.commandCalls(PutObjectCommand).map((call) => call.args[0].input.Key);
    expect(keys).toEqual([
      `build-sources/${uploaded.digest}/package.json`,
      `build-sources/${uploaded.digest}/adapter/src/cli.ts`,
      `build-sources/${uploaded.digest}/infra/docker/Dockerfile.cpu`,
      `build-sources/${uploaded.digest}/.complete`,
    ]);
  });

  it("skips the upload when the same sources are already complete in the bucket", async () => {
    s3.on(HeadObjectCommand).resolves({});
    const first = await uploadBuildSources(client, "artifacts", root);
    expect(s3).not.toHaveReceivedCommand(PutObjectCommand);
    write("adapter/src/cli.ts", "serve(changed);");
    const second = await uploadBuildSources(client, "artifacts", root);
    expect(second.digest).not.toBe(first.digest);
  });
});

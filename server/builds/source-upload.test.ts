import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { mockClient } from "aws-sdk-client-mock";
import "aws-sdk-client-mock-vitest/extend";
import { unzipSync } from "fflate";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { uploadBuildSources } from "./source-upload.ts";

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
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it("uploads one ZIP of the files under a content-addressed key and returns CodeBuild's S3 source", async () => {
    s3.on(ListObjectsV2Command).resolves({ KeyCount: 0 });
    s3.on(PutObjectCommand).resolves({});
    const uploaded = await uploadBuildSources(client, "artifacts", root, ["package.json", "adapter/src/cli.ts"]);
    expect(uploaded.location).toBe(`artifacts/build-sources/${uploaded.digest}.zip`);
    const puts = s3.commandCalls(PutObjectCommand);
    expect(puts.map((call) => call.args[0].input.Key)).toEqual([`build-sources/${uploaded.digest}.zip`]);
    const archive = unzipSync(puts[0]!.args[0].input.Body as Uint8Array);
    expect(Object.keys(archive).sort()).toEqual(["adapter/src/cli.ts", "package.json"]);
    expect(Buffer.from(archive["adapter/src/cli.ts"]!).toString()).toBe("serve();");
  });

  it("asks for the archive with a one-key listing, which the console's policy allows, and skips an existing one", async () => {
    s3.on(ListObjectsV2Command).callsFake((input: { Prefix: string }) => ({ Contents: [{ Key: input.Prefix }] }));
    const first = await uploadBuildSources(client, "artifacts", root, ["package.json", "adapter/src/cli.ts"]);
    expect(s3).not.toHaveReceivedCommand(PutObjectCommand);
    expect(s3).toHaveReceivedCommandWith(ListObjectsV2Command, {
      Bucket: "artifacts",
      Prefix: `build-sources/${first.digest}.zip`,
      MaxKeys: 1,
    });
    write("adapter/src/cli.ts", "serve(changed);");
    const second = await uploadBuildSources(client, "artifacts", root, ["package.json", "adapter/src/cli.ts"]);
    expect(second.digest).not.toBe(first.digest);
  });
});

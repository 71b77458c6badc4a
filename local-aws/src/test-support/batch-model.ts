import fs from "node:fs";
import path from "node:path";
import { CreateModelCommand, SageMakerClient } from "@aws-sdk/client-sagemaker";
import * as tar from "tar";
import type { ControlPlane } from "../control-plane.ts";
import { localClientConfig } from "../stack.ts";
import { localAdapterImageUri } from "./adapter-image.ts";
import { writeTinyModel } from "./stack-fixture.ts";

/** `gguf` packed as `models/<name>/model.tar.gz` in the stack's bucket; answers its s3:// URL. */
export async function publishModelArchive(
  plane: Pick<ControlPlane, "objects" | "bucket">,
  name: string,
  gguf: string,
  scratch: string,
): Promise<string> {
  const staging = path.join(scratch, "staging");
  fs.mkdirSync(staging, { recursive: true });
  fs.copyFileSync(gguf, path.join(staging, "model.gguf"));
  const archive = path.join(scratch, "model.tar.gz");
  await tar.c({ gzip: true, file: archive, cwd: staging }, ["model.gguf"]);
  const key = `models/${name}/model.tar.gz`;
  await plane.objects.putObject(plane.bucket, key, fs.readFileSync(archive));
  return `s3://${plane.bucket}/${key}`;
}

/** publishModelArchive of the generated tiny GGUF. */
export async function publishTinyModelArchive(
  plane: Pick<ControlPlane, "objects" | "bucket">,
  name: string,
  scratch: string,
): Promise<string> {
  const gguf = path.join(scratch, "tiny.gguf");
  writeTinyModel(gguf);
  return publishModelArchive(plane, name, gguf, scratch);
}

/** createAdapterModel on the adapter's generated tiny GGUF. */
export async function createTinyAdapterModel(
  plane: ControlPlane,
  name: string,
  scratch: string,
  environment: Record<string, string> = {},
) {
  const gguf = path.join(scratch, "tiny.gguf");
  writeTinyModel(gguf);
  await createAdapterModel(plane, name, gguf, scratch, environment);
}

/**
 * A SageMaker model of the cpu adapter image on `gguf` (packed as `models/<name>/model.tar.gz`), with the stack's
 * execution role, created as the admin (as the console's deploy would have).
 */
export async function createAdapterModel(
  plane: ControlPlane,
  name: string,
  gguf: string,
  scratch: string,
  environment: Record<string, string> = {},
) {
  const modelDataUrl = await publishModelArchive(plane, name, gguf, scratch);
  await new SageMakerClient(localClientConfig(plane, "admin")).send(
    new CreateModelCommand({
      ModelName: name,
      ExecutionRoleArn: plane.executionRoleArn,
      EnableNetworkIsolation: true,
      PrimaryContainer: {
        Image: localAdapterImageUri(plane),
        ModelDataUrl: modelDataUrl,
        Environment: { ADAPTER_READING_CACHE: "0", ...environment },
      },
    }),
  );
}

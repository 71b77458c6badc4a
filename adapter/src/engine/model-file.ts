import { createHash } from "node:crypto";
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { type ModelManifest, modelManifestSchema } from "../contract/common.ts";

export type ModelFile = { path: string; bytes: number; sha256: string; manifest: ModelManifest | null };

/**
 * `ADAPTER_MODEL_PATH`, else the first `*.gguf` (by name) under the model directory, as SageMaker lays it out. A
 * relative `ADAPTER_MODEL_PATH` is resolved against `base`: the directory the command was typed in (npm runs a
 * workspace's scripts inside the workspace, but passes the caller's directory as INIT_CWD).
 */
export function locateModel(modelPath: string | null, modelDir: string, base = process.cwd()): string {
  if (modelPath) {
    const resolved = path.resolve(base, modelPath);
    if (!existsSync(resolved)) {
      const how = path.isAbsolute(modelPath)
        ? ""
        : ` (the relative path ${modelPath} resolved against ${base}, the directory the command was run from; ` +
          "give an absolute path to be independent of it)";
      throw new Error(`ADAPTER_MODEL_PATH does not exist: ${resolved}${how}`);
    }
    return resolved;
  }
  if (!existsSync(modelDir))
    throw new Error(`model directory does not exist: ${modelDir} (set SM_MODEL_DIR or ADAPTER_MODEL_PATH)`);
  const first = readdirSync(modelDir)
    .filter((name) => name.endsWith(".gguf"))
    .sort()[0];
  if (!first) throw new Error(`no *.gguf file in ${modelDir}`);
  return path.join(modelDir, first);
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file, { highWaterMark: 8 * 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

function readManifest(file: string): ModelManifest | null {
  const manifestPath = path.join(path.dirname(file), "model-manifest.json");
  if (!existsSync(manifestPath)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(manifestPath, "utf8"));
  } catch (error) {
    throw new Error(`model-manifest.json is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = modelManifestSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`model-manifest.json lacks gguf.sha256: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

/**
 * Hashes the GGUF once (streamed) and refuses a file whose sha256 differs from a pin: the deployment's
 * (`ADAPTER_MODEL_SHA256`) and, when a manifest sits beside it, the manifest's.
 */
export async function verifyModelFile(file: string, deployedSha256: string | null = null): Promise<ModelFile> {
  const manifest = readManifest(file);
  const sha256 = await sha256File(file);
  if (deployedSha256 !== null && deployedSha256 !== sha256) {
    throw new Error(
      `model sha256 mismatch: ${path.basename(file)} is ${sha256}, the deployment pins ${deployedSha256} (ADAPTER_MODEL_SHA256)`,
    );
  }
  if (manifest && manifest.gguf.sha256.toLowerCase() !== sha256) {
    throw new Error(
      `model sha256 mismatch: ${path.basename(file)} is ${sha256}, model-manifest.json pins ${manifest.gguf.sha256}`,
    );
  }
  return { path: file, bytes: statSync(file).size, sha256, manifest };
}

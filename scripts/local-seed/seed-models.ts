import fs from "node:fs";
import path from "node:path";
import { type BuildSource, buildSourcesDir, type ControlPlane, DEFAULT_REGION } from "@decision-console/local-aws";
import { MODEL_PACKAGE_PROJECT } from "../../contract/stack/console-contract.ts";
import { LOCAL_ARTIFACT_BUCKET, REPO_ROOT } from "../../infra/local-stack/workspace-fixture.ts";
import { type BuildSourceRequest, buildSourceFiles } from "../../server/builds/build-sources.ts";
import { sourceArchive, sourceDigest } from "../../server/builds/source-upload.ts";
import { generateTinyModel } from "./tiny-model.ts";
import { TRAINED_SEED_NAME, type TrainedSeedSource, trainedSeedSource } from "./trained-seed.ts";

export interface SeedModel {
  name: string;
  /** `s3://decision-console-local/models/seed/<name>/model.tar.gz` */
  modelDataUrl: string;
  /** The model-packaging build that produced it; absent when it was already there. */
  buildId?: string;
}

export type SeedOptions = {
  /** The trained model to seed when the cache holds it (default: the pinned SmolLM2 in bench/out/models/). */
  trainedModel?: () => Promise<TrainedSeedSource>;
  /** Told why the trained model is not seeded (default: one line on stderr). */
  onSkip?: (name: string, reason: string) => void;
};

/** For tests about something else: seeds the generated (and shared) models only, not the 98 MB trained one. */
export const WITHOUT_TRAINED_MODEL: SeedOptions = {
  trainedModel: async () => ({ name: TRAINED_SEED_NAME, path: null, skipReason: "left out by the caller" }),
  onSkip: () => undefined,
};

/** The shared fixture, present beside the repository on the team's machines, absent in a fresh clone. */
export const SHARED_FIXTURE_MODEL = path.join(REPO_ROOT, "..", "shared", "fixtures", "models", "stories260K.gguf");

function seedUrl(name: string): { key: string; url: string } {
  const key = `models/seed/${name}/model.tar.gz`;
  return { key, url: `s3://${LOCAL_ARTIFACT_BUCKET}/${key}` };
}

/** Puts the repository's sources of a build into the local S3, as the console does before starting one. */
export async function putBuildSource(
  controlPlane: ControlPlane,
  request: BuildSourceRequest = { kind: "model" },
): Promise<BuildSource> {
  const files = buildSourceFiles(REPO_ROOT, request);
  const key = `build-sources/${sourceDigest(REPO_ROOT, files)}.zip`;
  if (!controlPlane.objects.find(LOCAL_ARTIFACT_BUCKET, key)) {
    await controlPlane.objects.putObject(LOCAL_ARTIFACT_BUCKET, key, Buffer.from(sourceArchive(REPO_ROOT, files)), {
      contentType: "application/zip",
    });
  }
  return { type: "S3", location: `${LOCAL_ARTIFACT_BUCKET}/${key}` };
}

/**
 * Makes sure a first-run user has something to deploy: packages a generated tiny GGUF, the shared stories260K
 * fixture when `../shared` exists, and the trained SmolLM2-135M-Instruct when `npm run models:fetch` has cached
 * exactly the pinned file, with the real packager, as model-packaging builds, into
 * `s3://decision-console-local/models/seed/<name>/model.tar.gz`. Models already there are left alone.
 */
export async function seedModels(controlPlane: ControlPlane, options: SeedOptions = {}): Promise<SeedModel[]> {
  // Builds package only files under build-sources, so each seed model is placed there first.
  const seedDir = path.join(buildSourcesDir(controlPlane.dataDir), "seed");
  const sources: { name: string; path: () => Promise<string>; sha256?: string; transient?: boolean }[] = [
    {
      name: "synthetic-tiny",
      path: async () => {
        const file = path.join(seedDir, "synthetic-tiny.gguf");
        if (!fs.existsSync(file)) await generateTinyModel(file);
        return file;
      },
    },
  ];
  if (fs.existsSync(SHARED_FIXTURE_MODEL))
    sources.push({
      name: "stories260K",
      path: async () => {
        const file = path.join(seedDir, "stories260K.gguf");
        fs.mkdirSync(seedDir, { recursive: true });
        fs.copyFileSync(SHARED_FIXTURE_MODEL, file);
        return file;
      },
    });
  // Hashing the cached file takes a moment: only a first run, or one after the seed was deleted, does it.
  const trainedSeeded = controlPlane.objects.find(LOCAL_ARTIFACT_BUCKET, seedUrl(TRAINED_SEED_NAME).key);
  const trained = trainedSeeded ? null : await (options.trainedModel ?? trainedSeedSource)();
  if (trainedSeeded) {
    // Listed so the result names it; the loop below finds its artifact and starts no build.
    sources.push({ name: TRAINED_SEED_NAME, path: () => Promise.reject(new Error(`${TRAINED_SEED_NAME} is seeded`)) });
  } else if (trained?.path === null) {
    (options.onSkip ?? ((name, reason) => process.stderr.write(`Not seeding ${name}: ${reason}\n`)))(
      trained.name,
      trained.skipReason,
    );
  } else if (trained) {
    const cached = trained.path;
    sources.push({
      name: trained.name,
      sha256: trained.sha256,
      // A copy only for the build's time: it is 98 MB, and the seed's artifact holds the model from then on.
      transient: true,
      path: async () => {
        const file = path.join(seedDir, `${trained.name}.gguf`);
        fs.mkdirSync(seedDir, { recursive: true });
        fs.copyFileSync(cached, file);
        return file;
      },
    });
  }
  const seeded: SeedModel[] = [];
  let buildSource: BuildSource | undefined;
  for (const source of sources) {
    const { key, url } = seedUrl(source.name);
    if (controlPlane.objects.find(LOCAL_ARTIFACT_BUCKET, key)) {
      seeded.push({ name: source.name, modelDataUrl: url });
      continue;
    }
    buildSource ??= await putBuildSource(controlPlane);
    const sourcePath = await source.path();
    const build = controlPlane.builds.start(
      MODEL_PACKAGE_PROJECT,
      [
        { name: "SOURCE_PATH", value: sourcePath },
        { name: "ARTIFACT_PREFIX", value: `models/seed/${source.name}` },
        { name: "COMPRESSION", value: "gzip" },
        // The packager checks the copy against the pin before anything is uploaded.
        ...(source.sha256 ? [{ name: "GGUF_SHA256", value: source.sha256 }] : []),
      ],
      DEFAULT_REGION,
      buildSource,
    );
    await controlPlane.builds.settled(build.id);
    if (source.transient) fs.rmSync(sourcePath, { force: true });
    if (!controlPlane.objects.find(LOCAL_ARTIFACT_BUCKET, key)) {
      throw new Error(`Seeding ${source.name} failed; see the logs of build ${build.id}.`);
    }
    seeded.push({ name: source.name, modelDataUrl: url, buildId: build.id });
  }
  return seeded;
}

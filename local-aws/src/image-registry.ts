import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Db } from "./database.ts";
import { LLAMA_CPP_DLC, llamaCppDlcAccount } from "./llama-cpp-dlc-images.ts";
import { DEFAULT_REGION, LOCAL_ACCOUNT_ID } from "./wire/request.ts";

export const ADAPTER_REPOSITORY = "decision-adapter";
export type ImageVariant = "cpu" | "cuda";

/** A repository of the local ECR and the registry (account) it belongs to. */
export interface LocalRepository {
  name: string;
  registryId: string;
}

/**
 * A registry's host, as ECR's developer guide names it: `aws_account_id.dkr.ecr.region.amazonaws.com`, with
 * `amazonaws.com.cn` in the China Regions.
 */
export function registryHost(account: string, region: string): string {
  return `${account}.dkr.ecr.${region}.amazonaws.com${region.startsWith("cn-") ? ".cn" : ""}`;
}

/**
 * The adapter's repository in the local account, and the llama.cpp DLC's in the DLC account of the local Region,
 * whose images are local mode's llama-server stand-in (`adapter/stand-ins/llama-server/`).
 */
export const LOCAL_REPOSITORIES: readonly LocalRepository[] = [
  { name: ADAPTER_REPOSITORY, registryId: LOCAL_ACCOUNT_ID },
  { name: LLAMA_CPP_DLC.repository, registryId: llamaCppDlcAccount(DEFAULT_REGION)! },
];

/** Where the stand-in's sources live: with the adapter's, they are what its local image is. */
const STAND_IN_DIR = path.join("adapter", "stand-ins", "llama-server");

export interface LocalImage {
  repository: string;
  digest: string;
  variant: ImageVariant;
  size: number;
  pushedAt: Date;
  tags: string[];
}

/**
 * The hash of the adapter as this working tree has it: every file under `adapter/src` (sorted by path) and
 * `adapter/package.json`. Images "built" locally are this adapter, so their digest is derived from it.
 */
export function adapterSourceHash(repoRoot: string): { hash: string; bytes: number } {
  const adapterDir = path.join(repoRoot, "adapter");
  return treeHash(adapterDir, [path.join(adapterDir, "package.json"), ...listFiles(path.join(adapterDir, "src"))]);
}

/** Paths (relative to `base`) and bytes of the files, sorted by path. */
function treeHash(base: string, files: string[]): { hash: string; bytes: number } {
  const hash = createHash("sha256");
  let bytes = 0;
  for (const file of files.filter((f) => fs.existsSync(f)).sort()) {
    const content = fs.readFileSync(file);
    bytes += content.length;
    hash.update(path.relative(base, file).split(path.sep).join("/"));
    hash.update("\0");
    hash.update(content);
    hash.update("\0");
  }
  return { hash: hash.digest("hex"), bytes };
}

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

/** The CPU and CUDA images of one adapter source differ (different base image), so the variant is hashed in. */
export function adapterImageDigest(sourceHash: string, variant: ImageVariant): string {
  return `sha256:${createHash("sha256").update(`${ADAPTER_REPOSITORY}:${variant}\n${sourceHash}`).digest("hex")}`;
}

/** The stand-in of one DLC variant: its own sources and the adapter's, which it runs. */
function dlcStandInDigest(repoRoot: string, variant: ImageVariant): { digest: string; bytes: number } {
  const adapter = adapterSourceHash(repoRoot);
  const standIn = treeHash(repoRoot, listFiles(path.join(repoRoot, STAND_IN_DIR)));
  const digest = createHash("sha256").update(
    `${LLAMA_CPP_DLC.repository}:${variant}\n${adapter.hash}\n${standIn.hash}`,
  );
  return { digest: `sha256:${digest.digest("hex")}`, bytes: adapter.bytes + standIn.bytes };
}

/** Local ECR: images by digest and mutable tags pointing at them. */
export class ImageRegistry {
  constructor(
    private readonly db: Db,
    private readonly repoRoot: string,
  ) {}

  /**
   * Records an adapter as an image of `variant` and points the given tags at it: the working tree's, or that of
   * a build's unpacked source (`sourceRoot`), so the digest is that of what the build was given.
   */
  recordAdapterImage(variant: ImageVariant, tags: string[], sourceRoot = this.repoRoot): LocalImage {
    const { hash, bytes } = adapterSourceHash(sourceRoot);
    return this.record(ADAPTER_REPOSITORY, adapterImageDigest(hash, variant), variant, bytes, tags);
  }

  private record(repository: string, digest: string, variant: ImageVariant, bytes: number, tags: string[]) {
    this.db.transaction(() => {
      this.db
        .prepare(
          "INSERT OR IGNORE INTO ecr_images (repository, digest, variant, size, pushed_at) VALUES (?, ?, ?, ?, ?)",
        )
        .run(repository, digest, variant, bytes, Date.now() / 1000);
      for (const tag of tags) {
        this.db
          .prepare(
            "INSERT INTO ecr_tags (repository, tag, digest) VALUES (?, ?, ?) ON CONFLICT (repository, tag) DO UPDATE SET digest = excluded.digest",
          )
          .run(repository, tag, digest);
      }
    })();
    return this.image(repository, digest)!;
  }

  /**
   * The adapter repository always holds `cpu` and `cuda`, pointing at the adapter of the working tree; the DLC
   * repository its two SageMaker tags, pointing at the stand-in of the working tree.
   */
  ensureBaseImages() {
    this.recordAdapterImage("cpu", ["cpu"]);
    this.recordAdapterImage("cuda", ["cuda"]);
    for (const variant of ["cpu", "cuda"] as const) {
      const { digest, bytes } = dlcStandInDigest(this.repoRoot, variant);
      this.record(LLAMA_CPP_DLC.repository, digest, variant, bytes, [LLAMA_CPP_DLC.tags[variant]]);
    }
  }

  /** A repository by name, in the given registry (default: any). */
  repository(name: string, registryId?: string): LocalRepository | undefined {
    return LOCAL_REPOSITORIES.find((r) => r.name === name && (registryId === undefined || r.registryId === registryId));
  }

  image(repository: string, digest: string): LocalImage | undefined {
    const row = this.db
      .prepare("SELECT * FROM ecr_images WHERE repository = ? AND digest = ?")
      .get(repository, digest) as
      | { repository: string; digest: string; variant: ImageVariant; size: number; pushed_at: number }
      | undefined;
    if (!row) return undefined;
    const tags = (
      this.db
        .prepare("SELECT tag FROM ecr_tags WHERE repository = ? AND digest = ? ORDER BY tag")
        .all(repository, digest) as {
        tag: string;
      }[]
    ).map((t) => t.tag);
    return { repository, digest, variant: row.variant, size: row.size, pushedAt: new Date(row.pushed_at * 1000), tags };
  }

  images(repository: string): LocalImage[] {
    const rows = this.db
      .prepare("SELECT digest FROM ecr_images WHERE repository = ? ORDER BY pushed_at DESC, digest")
      .all(repository) as { digest: string }[];
    return rows.map((row) => this.image(repository, row.digest)!);
  }

  digestForTag(repository: string, tag: string): string | undefined {
    const row = this.db.prepare("SELECT digest FROM ecr_tags WHERE repository = ? AND tag = ?").get(repository, tag) as
      | { digest: string }
      | undefined;
    return row?.digest;
  }

  /**
   * Resolves an image URI (`<account>.dkr.ecr.<region>.amazonaws.com/<repo>@sha256:<hex>` or `...:<tag>`) the way
   * SageMaker pulls it; undefined when no repository of that account holds it.
   */
  resolve(imageUri: string): (LocalImage & { registryId: string }) | undefined {
    const match =
      /^(\d{12})\.dkr\.ecr\.[a-z0-9-]+\.amazonaws\.com(?:\.cn)?\/([^@:]+)(?:@(sha256:[0-9a-f]{64})|:([\w][\w.-]{0,127}))$/.exec(
        imageUri,
      );
    const repository = match?.[2] ? this.repository(match[2], match[1]) : undefined;
    if (!match || !repository) return undefined;
    const digest = match[3] ?? (match[4] ? this.digestForTag(repository.name, match[4]) : undefined);
    const image = digest ? this.image(repository.name, digest) : undefined;
    return image ? { ...image, registryId: repository.registryId } : undefined;
  }
}

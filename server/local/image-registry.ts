import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Db } from "./database.ts";

export const ADAPTER_REPOSITORY = "decision-adapter";
export type ImageVariant = "cpu" | "cuda";

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
  const files = [path.join(adapterDir, "package.json"), ...listFiles(path.join(adapterDir, "src"))].filter((file) =>
    fs.existsSync(file),
  );
  const hash = createHash("sha256");
  let bytes = 0;
  for (const file of files.sort()) {
    const content = fs.readFileSync(file);
    bytes += content.length;
    hash.update(path.relative(adapterDir, file).split(path.sep).join("/"));
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
    const digest = adapterImageDigest(hash, variant);
    this.db.transaction(() => {
      this.db
        .prepare(
          "INSERT OR IGNORE INTO ecr_images (repository, digest, variant, size, pushed_at) VALUES (?, ?, ?, ?, ?)",
        )
        .run(ADAPTER_REPOSITORY, digest, variant, bytes, Date.now() / 1000);
      for (const tag of tags) {
        this.db
          .prepare(
            "INSERT INTO ecr_tags (repository, tag, digest) VALUES (?, ?, ?) ON CONFLICT (repository, tag) DO UPDATE SET digest = excluded.digest",
          )
          .run(ADAPTER_REPOSITORY, tag, digest);
      }
    })();
    return this.image(ADAPTER_REPOSITORY, digest)!;
  }

  /** The repository always holds `cpu` and `cuda`, pointing at the adapter of the working tree. */
  ensureBaseImages() {
    this.recordAdapterImage("cpu", ["cpu"]);
    this.recordAdapterImage("cuda", ["cuda"]);
  }

  repositories(): string[] {
    return [ADAPTER_REPOSITORY];
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
   * Resolves an image URI (`<registry>/<repo>@sha256:<hex>` or `<registry>/<repo>:<tag>`) the way SageMaker
   * pulls it; undefined when this registry does not hold it.
   */
  resolve(imageUri: string): LocalImage | undefined {
    const match = /^[^/]+\/([^@:]+)(?:@(sha256:[0-9a-f]{64})|:([\w][\w.-]{0,127}))$/.exec(imageUri);
    if (!match?.[1]) return undefined;
    const repository = match[1];
    const digest = match[2] ?? (match[3] ? this.digestForTag(repository, match[3]) : undefined);
    return digest ? this.image(repository, digest) : undefined;
  }
}

import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Db } from "./database.ts";
import { LLAMA_CPP_DLC } from "./llama-cpp-dlc-images.ts";
import type {
  ContainerContract,
  ImageRepositoryFixture,
  ImageVariant,
  InstanceProgram,
  LocalStackFixture,
} from "./stack-fixture.ts";
import { DEFAULT_REGION, LOCAL_ACCOUNT_ID } from "./wire/request.ts";

export type { ImageVariant } from "./stack-fixture.ts";

/** A repository of the local ECR and the registry (account) it belongs to. */
export interface LocalRepository {
  name: string;
  registryId: string;
  fixture: ImageRepositoryFixture;
}

/**
 * A registry's host, as ECR's developer guide names it: `aws_account_id.dkr.ecr.region.amazonaws.com`, with
 * `amazonaws.com.cn` in the China Regions.
 */
export function registryHost(account: string, region: string): string {
  return `${account}.dkr.ecr.${region}.amazonaws.com${region.startsWith("cn-") ? ".cn" : ""}`;
}

export interface LocalImage {
  repository: string;
  digest: string;
  variant: ImageVariant;
  size: number;
  pushedAt: Date;
  tags: string[];
}

/**
 * The hash of an image's source files as they are under `root` (each path, relative to `root`, and its bytes,
 * sorted by path; a directory stands for every file under it). Images "built" locally are their sources, so their
 * digests derive from it.
 */
export function imageSourceHash(root: string, sources: readonly string[]): { hash: string; bytes: number } {
  const files = sources.flatMap((source) => listFiles(path.join(root, source)));
  const hash = createHash("sha256");
  let bytes = 0;
  for (const file of files.sort()) {
    const content = fs.readFileSync(file);
    bytes += content.length;
    hash.update(path.relative(root, file).split(path.sep).join("/"));
    hash.update("\0");
    hash.update(content);
    hash.update("\0");
  }
  return { hash: hash.digest("hex"), bytes };
}

function listFiles(target: string): string[] {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return [];
  if (!stat.isDirectory()) return [target];
  return fs.readdirSync(target).flatMap((name) => listFiles(path.join(target, name)));
}

/** The CPU and CUDA images of one source differ (different base image), so repository and variant are hashed in. */
export function imageDigest(repository: string, sourceHash: string, variant: ImageVariant): string {
  return `sha256:${createHash("sha256").update(`${repository}:${variant}\n${sourceHash}`).digest("hex")}`;
}

/** The account of a repository's registry: the local account's, or the stack's mapping's for the Region. */
function registryIdOf(repository: ImageRepositoryFixture, fixture: LocalStackFixture, region: string) {
  if (!repository.registry) return LOCAL_ACCOUNT_ID;
  const account = fixture.stack.mappings[repository.registry.mapping]?.[region]?.account;
  if (!account) {
    throw new Error(
      `The stack's ${repository.registry.mapping} mapping has no account for ${region} (${repository.name}).`,
    );
  }
  return account;
}

/**
 * The tag a base image carries: the DLC's documented SageMaker tag in its repository, the variant's name
 * elsewhere (what the image build pushes besides its unique tag).
 */
function baseTag(repository: string, variant: ImageVariant): string {
  return repository === LLAMA_CPP_DLC.repository ? LLAMA_CPP_DLC.tags[variant] : variant;
}

/** Local ECR: the fixture's repositories, images by digest and mutable tags pointing at them. */
export class ImageRegistry {
  readonly repositories: readonly LocalRepository[];

  constructor(
    private readonly db: Db,
    fixture: LocalStackFixture,
    region = DEFAULT_REGION,
  ) {
    this.repositories = fixture.imageRepositories.map((repository) => ({
      name: repository.name,
      registryId: registryIdOf(repository, fixture, region),
      fixture: repository,
    }));
  }

  /**
   * Records the image a build of `sourceRoot` (its unpacked source) pushes to a repository of the local account,
   * and points the given tags at it: its digest is that of the repository's source files in what the build was
   * given. Undefined when the local account has no such repository.
   */
  recordBuiltImage(
    repository: string,
    variant: ImageVariant,
    tags: string[],
    sourceRoot: string,
  ): LocalImage | undefined {
    const target = this.repository(repository, LOCAL_ACCOUNT_ID);
    if (!target) return undefined;
    const { hash, bytes } = imageSourceHash(sourceRoot, target.fixture.sources);
    return this.record(target.name, imageDigest(target.name, hash, variant), variant, bytes, tags);
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

  /** Each repository holds a `cpu` and a `cuda` base image, built from the fixture's sources as they are now. */
  ensureBaseImages() {
    for (const { name, fixture } of this.repositories) {
      const { hash, bytes } = imageSourceHash(fixture.sourceRoot, fixture.sources);
      for (const variant of ["cpu", "cuda"] as const) {
        this.record(name, imageDigest(name, hash, variant), variant, bytes, [baseTag(name, variant)]);
      }
    }
  }

  /** A repository by name, in the given registry (default: any). */
  repository(name: string, registryId?: string): LocalRepository | undefined {
    return this.repositories.find((r) => r.name === name && (registryId === undefined || r.registryId === registryId));
  }

  /** What an instance of an image of this repository runs, and the container contract it follows. */
  program(repository: string, variant: ImageVariant): { contract: ContainerContract; program: InstanceProgram } {
    const fixture = this.repository(repository)?.fixture;
    if (!fixture) throw new Error(`local ECR has no repository ${repository}`);
    return { contract: fixture.contract, program: fixture.programs[variant] };
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

import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { containedPath } from "./contained-path.ts";
import type { Db } from "./database.ts";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "./private-data.ts";
import { AwsError } from "./wire/aws-error.ts";
import { malformedXml } from "./wire/xml.ts";

export interface StoredObject {
  bucket: string;
  key: string;
  size: number;
  etag: string;
  contentType: string | null;
  metadata: Record<string, string>;
  file: string;
  lastModified: Date;
}

interface ObjectRow {
  bucket: string;
  key: string;
  size: number;
  etag: string;
  content_type: string | null;
  metadata: string;
  file: string;
  last_modified: number;
}

const MAX_KEY_BYTES = 1024;

/**
 * S3 stores any UTF-8 key up to 1,024 bytes, but local mode lays keys out as files (an uncompressed model prefix
 * becomes `/opt/ml/model`), so it refuses at write time the keys it cannot store safely: `.` or `..` segments,
 * NUL and backslashes.
 */
export function requireStorableKey(key: string) {
  if (Buffer.byteLength(key, "utf8") > MAX_KEY_BYTES) {
    throw new AwsError("KeyTooLongError", "Your key is too long", 400, { MaxSizeAllowed: MAX_KEY_BYTES });
  }
  if (
    key.includes("\0") ||
    key.includes("\\") ||
    key.split("/").some((segment) => segment === "." || segment === "..")
  ) {
    throw new AwsError(
      "InvalidArgument",
      `Object key ${JSON.stringify(key)} has a "." or ".." segment, a NUL or a backslash; the local S3 refuses keys it cannot lay out safely as files.`,
      400,
      { ArgumentName: "key", ArgumentValue: key },
    );
  }
}

const PRIVATE_FILE = { mode: PRIVATE_FILE_MODE } as const;

/** Local S3: object metadata in SQLite, bytes as files under `<dataDir>/s3` (0600 files in 0700 directories). */
export class ObjectStore {
  private readonly objectsDir: string;
  private readonly uploadsDir: string;

  constructor(
    private readonly db: Db,
    dataDir: string,
  ) {
    this.objectsDir = path.join(dataDir, "s3", "objects");
    this.uploadsDir = path.join(dataDir, "s3", "uploads");
    fs.mkdirSync(this.objectsDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    fs.mkdirSync(this.uploadsDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  }

  createBucket(name: string) {
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(name)) {
      throw new AwsError("InvalidBucketName", "The specified bucket is not valid.", 400, { BucketName: name });
    }
    this.db.prepare("INSERT OR IGNORE INTO s3_buckets (name, created_at) VALUES (?, ?)").run(name, Date.now() / 1000);
  }

  listBuckets(): { name: string; createdAt: Date }[] {
    const rows = this.db.prepare("SELECT name, created_at FROM s3_buckets ORDER BY name").all() as {
      name: string;
      created_at: number;
    }[];
    return rows.map((row) => ({ name: row.name, createdAt: new Date(row.created_at * 1000) }));
  }

  requireBucket(name: string) {
    if (!this.db.prepare("SELECT 1 FROM s3_buckets WHERE name = ?").get(name)) {
      throw new AwsError("NoSuchBucket", "The specified bucket does not exist", 404, { BucketName: name });
    }
  }

  async putObject(
    bucket: string,
    key: string,
    body: Readable | Buffer,
    options: { contentType?: string | null; metadata?: Record<string, string> } = {},
  ): Promise<StoredObject> {
    requireStorableKey(key);
    this.requireBucket(bucket);
    const file = path.join(this.objectsDir, randomUUID());
    const md5 = createHash("md5");
    let size = 0;
    try {
      if (Buffer.isBuffer(body)) {
        md5.update(body);
        size = body.length;
        await fs.promises.writeFile(file, body, PRIVATE_FILE);
      } else {
        await pipeline(
          body,
          async function* (source) {
            for await (const chunk of source) {
              md5.update(chunk as Buffer);
              size += (chunk as Buffer).length;
              yield chunk;
            }
          },
          fs.createWriteStream(file, PRIVATE_FILE),
        );
      }
    } catch (error) {
      fs.rmSync(file, { force: true });
      throw error;
    }
    return this.commit(bucket, key, file, size, md5.digest("hex"), options);
  }

  private commit(
    bucket: string,
    key: string,
    file: string,
    size: number,
    etag: string,
    options: { contentType?: string | null; metadata?: Record<string, string> },
  ): StoredObject {
    const previous = this.find(bucket, key);
    const lastModified = Date.now() / 1000;
    this.db
      .prepare(
        `INSERT INTO s3_objects (bucket, key, size, etag, content_type, metadata, file, last_modified)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (bucket, key) DO UPDATE SET size = excluded.size, etag = excluded.etag,
           content_type = excluded.content_type, metadata = excluded.metadata, file = excluded.file,
           last_modified = excluded.last_modified`,
      )
      .run(
        bucket,
        key,
        size,
        etag,
        options.contentType ?? null,
        JSON.stringify(options.metadata ?? {}),
        file,
        lastModified,
      );
    if (previous) fs.rmSync(previous.file, { force: true });
    return this.getObject(bucket, key);
  }

  find(bucket: string, key: string): StoredObject | undefined {
    const row = this.db.prepare("SELECT * FROM s3_objects WHERE bucket = ? AND key = ?").get(bucket, key) as
      | ObjectRow
      | undefined;
    return row ? toObject(row) : undefined;
  }

  getObject(bucket: string, key: string): StoredObject {
    this.requireBucket(bucket);
    const found = this.find(bucket, key);
    if (!found) throw new AwsError("NoSuchKey", "The specified key does not exist.", 404, { Key: key });
    return found;
  }

  deleteObject(bucket: string, key: string) {
    this.requireBucket(bucket);
    const found = this.find(bucket, key);
    if (!found) return;
    this.db.prepare("DELETE FROM s3_objects WHERE bucket = ? AND key = ?").run(bucket, key);
    fs.rmSync(found.file, { force: true });
  }

  /** Objects in key order after `startAfter`, at most `limit` (+1 to tell whether more remain). */
  list(bucket: string, prefix: string, startAfter: string, limit: number): StoredObject[] {
    this.requireBucket(bucket);
    const rows = this.db
      .prepare("SELECT * FROM s3_objects WHERE bucket = ? AND key > ? AND substr(key, 1, ?) = ? ORDER BY key LIMIT ?")
      .all(bucket, startAfter, prefix.length, prefix, limit) as ObjectRow[];
    return rows.map(toObject);
  }

  createUpload(bucket: string, key: string, contentType: string | null, metadata: Record<string, string>): string {
    requireStorableKey(key);
    this.requireBucket(bucket);
    const uploadId = randomUUID().replaceAll("-", "");
    fs.mkdirSync(containedPath(this.uploadsDir, uploadId), { mode: PRIVATE_DIR_MODE });
    this.db
      .prepare(
        "INSERT INTO s3_uploads (upload_id, bucket, key, content_type, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .run(uploadId, bucket, key, contentType, JSON.stringify(metadata), Date.now() / 1000);
    return uploadId;
  }

  private requireUpload(uploadId: string, bucket: string, key: string) {
    requireStorableKey(key);
    const row = this.db.prepare("SELECT * FROM s3_uploads WHERE upload_id = ?").get(uploadId) as
      | { bucket: string; key: string; content_type: string | null; metadata: string }
      | undefined;
    if (!row || row.bucket !== bucket || row.key !== key) {
      throw new AwsError(
        "NoSuchUpload",
        "The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.",
        404,
        { UploadId: uploadId },
      );
    }
    return { ...row, dir: containedPath(this.uploadsDir, uploadId) };
  }

  async uploadPart(bucket: string, key: string, uploadId: string, partNumber: number, body: Readable): Promise<string> {
    const { dir } = this.requireUpload(uploadId, bucket, key);
    if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10000) {
      throw new AwsError("InvalidArgument", "Part number must be an integer between 1 and 10000, inclusive", 400);
    }
    const md5 = createHash("md5");
    const partFile = path.join(dir, String(partNumber));
    fs.rmSync(path.join(dir, `${partNumber}.etag`), { force: true });
    try {
      await pipeline(
        body,
        async function* (source) {
          for await (const chunk of source) {
            md5.update(chunk as Buffer);
            yield chunk;
          }
        },
        fs.createWriteStream(partFile, PRIVATE_FILE),
      );
    } catch (error) {
      fs.rmSync(partFile, { force: true });
      throw error;
    }
    const etag = md5.digest("hex");
    fs.writeFileSync(path.join(dir, `${partNumber}.etag`), etag, PRIVATE_FILE);
    return etag;
  }

  async completeUpload(
    bucket: string,
    key: string,
    uploadId: string,
    parts: { partNumber: number; etag: string }[],
  ): Promise<StoredObject> {
    const upload = this.requireUpload(uploadId, bucket, key);
    if (parts.length === 0) {
      throw malformedXml();
    }
    const { dir } = upload;
    let previous = 0;
    const digests: Buffer[] = [];
    for (const part of parts) {
      if (part.partNumber <= previous) {
        throw new AwsError(
          "InvalidPartOrder",
          "The list of parts was not in ascending order. The parts list must be specified in order by part number.",
        );
      }
      previous = part.partNumber;
      const etagFile = path.join(dir, `${part.partNumber}.etag`);
      const stored = fs.existsSync(etagFile) ? fs.readFileSync(etagFile, "utf8") : undefined;
      if (stored !== part.etag) {
        throw new AwsError(
          "InvalidPart",
          "One or more of the specified parts could not be found. The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.",
        );
      }
      digests.push(Buffer.from(stored, "hex"));
    }
    const file = path.join(this.objectsDir, randomUUID());
    const out = fs.createWriteStream(file, PRIVATE_FILE);
    let size = 0;
    for (const part of parts) {
      const partFile = path.join(dir, String(part.partNumber));
      size += fs.statSync(partFile).size;
      await pipeline(fs.createReadStream(partFile), out, { end: false });
    }
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    const etag = `${createHash("md5").update(Buffer.concat(digests)).digest("hex")}-${parts.length}`;
    this.db.prepare("DELETE FROM s3_uploads WHERE upload_id = ?").run(uploadId);
    fs.rmSync(dir, { recursive: true, force: true });
    return this.commit(bucket, key, file, size, etag, {
      contentType: upload.content_type,
      metadata: JSON.parse(upload.metadata) as Record<string, string>,
    });
  }

  abortUpload(bucket: string, key: string, uploadId: string) {
    const { dir } = this.requireUpload(uploadId, bucket, key);
    this.db.prepare("DELETE FROM s3_uploads WHERE upload_id = ?").run(uploadId);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function toObject(row: ObjectRow): StoredObject {
  return {
    bucket: row.bucket,
    key: row.key,
    size: row.size,
    etag: row.etag,
    contentType: row.content_type,
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    file: row.file,
    lastModified: new Date(row.last_modified * 1000),
  };
}

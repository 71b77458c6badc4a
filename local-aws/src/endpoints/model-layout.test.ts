import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as tar from "tar";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Db, openLocalDatabase } from "../database.ts";
import { ObjectStore } from "../object-store.ts";
import { layOutModel, ModelDataError } from "./model-layout.ts";

/** A gzipped tar written header by header, so an archive can hold what `tar.c` would never write. */
function craftedTarball(entries: readonly { path: string; type: string; linkpath?: string; data?: string }[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const data = Buffer.from(entry.data ?? "");
    const header = Buffer.alloc(512);
    new tar.Header({
      path: entry.path,
      type: entry.type as tar.Header["type"],
      linkpath: entry.linkpath,
      size: data.length,
      mode: 0o644,
      mtime: new Date(0),
    }).encode(header, 0);
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  return gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)]));
}

let dir: string;
let db: Db;
let store: ObjectStore;
const modelDir = () => path.join(dir, "model");

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "model-layout-"));
  db = openLocalDatabase(dir);
  store = new ObjectStore(db, dir);
  store.createBucket("artifacts");
});

afterEach(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("laying model data out as /opt/ml/model", () => {
  it("unpacks a ModelDataUrl model.tar.gz", async () => {
    const staging = path.join(dir, "staging");
    fs.mkdirSync(path.join(staging, "tokenizer"), { recursive: true });
    fs.writeFileSync(path.join(staging, "model.gguf"), "weights");
    fs.writeFileSync(path.join(staging, "tokenizer", "tokenizer.json"), "{}");
    await tar.c({ gzip: true, file: path.join(dir, "model.tar.gz"), cwd: staging }, ["model.gguf", "tokenizer"]);
    await store.putObject("artifacts", "m/model.tar.gz", fs.readFileSync(path.join(dir, "model.tar.gz")));
    await layOutModel(store, { ModelDataUrl: "s3://artifacts/m/model.tar.gz" }, modelDir());
    expect(fs.readFileSync(path.join(modelDir(), "model.gguf"), "utf8")).toBe("weights");
    expect(fs.existsSync(path.join(modelDir(), "tokenizer", "tokenizer.json"))).toBe(true);
  });

  it("copies an uncompressed S3 prefix file by file", async () => {
    await store.putObject("artifacts", "u/model.gguf", Buffer.from("weights"));
    await store.putObject("artifacts", "u/model-manifest.json", Buffer.from("{}"));
    await store.putObject("artifacts", "other/x.gguf", Buffer.from("not this"));
    await layOutModel(
      store,
      {
        ModelDataSource: {
          S3DataSource: { S3Uri: "s3://artifacts/u/", S3DataType: "S3Prefix", CompressionType: "None" },
        },
      },
      modelDir(),
    );
    expect(fs.readdirSync(modelDir()).sort()).toEqual(["model-manifest.json", "model.gguf"]);
  });

  it.each([
    ["a symbolic link to an absolute path", { path: "model.gguf", type: "SymbolicLink", linkpath: "/etc/passwd" }],
    ["a symbolic link that climbs out", { path: "tokenizer", type: "SymbolicLink", linkpath: "../../.." }],
    ["a hard link that climbs out", { path: "weights.gguf", type: "Link", linkpath: "../../victim" }],
    ["an entry that climbs out", { path: "../victim", type: "File", data: "x" }],
    ["a device node", { path: "tty", type: "CharacterDevice" }],
  ] as const)(
    "refuses a model.tar.gz with %s and leaves nothing outside the model directory",
    async (_label, entry) => {
      fs.writeFileSync(path.join(dir, "victim"), "untouched");
      await store.putObject(
        "artifacts",
        "evil/model.tar.gz",
        craftedTarball([{ path: "ok.gguf", type: "File", data: "GGUF" }, entry]),
      );
      await expect(
        layOutModel(store, { ModelDataUrl: "s3://artifacts/evil/model.tar.gz" }, modelDir()),
      ).rejects.toThrow(ModelDataError);
      expect(fs.readFileSync(path.join(dir, "victim"), "utf8")).toBe("untouched");
      for (const name of fs.existsSync(modelDir()) ? fs.readdirSync(modelDir()) : []) {
        const target = path.join(modelDir(), name);
        if (fs.lstatSync(target).isSymbolicLink())
          throw new Error(`${name} was extracted as a link to ${fs.readlinkSync(target)}`);
      }
    },
  );

  it("refuses a chain of links that each look inside but together lead out (tar's own check passes it)", async () => {
    fs.writeFileSync(path.join(dir, "secret.txt"), "SECRET");
    await store.putObject(
      "artifacts",
      "chain/model.tar.gz",
      craftedTarball([
        { path: "a/", type: "Directory" },
        { path: "b/", type: "Directory" },
        { path: "a/l", type: "SymbolicLink", linkpath: "../b" },
        { path: "model.gguf", type: "SymbolicLink", linkpath: "a/l/../../secret.txt" },
      ]),
    );
    await expect(layOutModel(store, { ModelDataUrl: "s3://artifacts/chain/model.tar.gz" }, modelDir())).rejects.toThrow(
      /a\/l links to \.\.\/b, outside the model directory/,
    );
    expect(fs.existsSync(path.join(modelDir(), "model.gguf"))).toBe(false);
  });

  it("keeps links that stay inside the model directory", async () => {
    await store.putObject(
      "artifacts",
      "linked/model.tar.gz",
      craftedTarball([
        { path: "blobs/weights", type: "File", data: "GGUF" },
        { path: "model.gguf", type: "SymbolicLink", linkpath: "blobs/weights" },
      ]),
    );
    await layOutModel(store, { ModelDataUrl: "s3://artifacts/linked/model.tar.gz" }, modelDir());
    expect(fs.readFileSync(path.join(modelDir(), "model.gguf"), "utf8")).toBe("GGUF");
  });

  it("names the missing object, and refuses data that is not a tarball", async () => {
    await expect(
      layOutModel(store, { ModelDataUrl: "s3://artifacts/absent/model.tar.gz" }, modelDir()),
    ).rejects.toThrow(/Could not access model data at s3:\/\/artifacts\/absent\/model\.tar\.gz/);
    await store.putObject("artifacts", "plain/model.tar.gz", Buffer.from("GGUF plain"));
    await expect(
      layOutModel(store, { ModelDataUrl: "s3://artifacts/plain/model.tar.gz" }, modelDir()),
    ).rejects.toBeInstanceOf(ModelDataError);
  });
});

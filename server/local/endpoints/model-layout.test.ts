import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as tar from "tar";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Db, openLocalDatabase } from "../database.ts";
import { ObjectStore } from "../object-store.ts";
import { layOutModel, ModelDataError } from "./model-layout.ts";

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

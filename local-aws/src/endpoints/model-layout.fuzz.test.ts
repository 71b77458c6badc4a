import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openLocalDatabase } from "../database.ts";
import { ObjectStore } from "../object-store.ts";
import { layOutModel, MAX_MODEL_ENTRIES, ModelDataError } from "./model-layout.ts";

/**
 * A model.tar.gz is anyone's upload (security issue 25 item 2): bombs, truncated and malformed archives fail the
 * endpoint with a FailureReason that says why, bounded in disk and time, and never end the control plane or
 * place anything outside the model directory.
 */
let dir: string;
let db: Db;
let store: ObjectStore;
let run = 0;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "model-fuzz-"));
  db = openLocalDatabase(dir);
  store = new ObjectStore(db, dir);
  store.createBucket("artifacts");
  fs.writeFileSync(path.join(dir, "secret.txt"), "SECRET");
});

afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function tarEntries(entries: readonly { path: string; type?: string; linkpath?: string; size?: number }[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const data = Buffer.alloc(entry.size ?? 0, 0x47);
    const header = Buffer.alloc(512);
    const fields = new tar.Header({
      path: entry.path,
      type: (entry.type ?? "File") as tar.Header["type"],
      linkpath: entry.linkpath,
      size: data.length,
      mode: 0o644,
      mtime: new Date(0),
    });
    fields.encode(header, 0);
    // A path longer than ustar's fields goes in a PAX extended header before the entry, as tar writes it.
    if (fields.needPax) blocks.push(new tar.Pax({ path: entry.path, linkpath: entry.linkpath }).encode());
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  return Buffer.concat([...blocks, Buffer.alloc(1024)]);
}

async function layOut(archive: Buffer, limits?: { maxBytes: number }) {
  run += 1;
  const key = `m/${run}/model.tar.gz`;
  await store.putObject("artifacts", key, archive);
  const modelDir = path.join(dir, "models", String(run));
  try {
    await layOutModel(store, { ModelDataUrl: `s3://artifacts/${key}` }, modelDir, limits);
    return { modelDir };
  } catch (error) {
    return { modelDir, error };
  } finally {
    store.deleteObject("artifacts", key);
  }
}

/** Nothing under `modelDir` resolves outside it. */
function staysInside(modelDir: string) {
  if (!fs.existsSync(modelDir)) return;
  const root = fs.realpathSync(modelDir);
  for (const name of fs.readdirSync(modelDir, { recursive: true }) as string[]) {
    let real: string;
    try {
      real = fs.realpathSync(path.join(modelDir, name));
    } catch {
      continue; // a dangling link inside: nothing to reach
    }
    expect(real === root || real.startsWith(`${root}${path.sep}`)).toBe(true);
  }
}

describe("laying out a hostile model.tar.gz", { timeout: 120_000 }, () => {
  it("refuses an archive that expands past the space it may take, and leaves no partial model", async () => {
    const maxBytes = 1024 * 1024;
    const result = await layOut(gzipSync(tarEntries([{ path: "model.gguf", size: 4 * maxBytes }])), { maxBytes });
    expect(result.error).toBeInstanceOf(ModelDataError);
    expect((result.error as Error).message).toMatch(new RegExp(`expands to more than ${maxBytes} bytes`));
    expect(fs.existsSync(result.modelDir) ? fs.readdirSync(result.modelDir) : []).toEqual([]);
  });

  it("stops inflating a gzip of zeros at the ceiling, without reading it to the end", async () => {
    const maxBytes = 1024 * 1024;
    const zeros = gzipSync(Buffer.alloc(256 * 1024 * 1024), { level: 1 });
    const started = Date.now();
    const result = await layOut(zeros, { maxBytes });
    expect((result.error as Error | undefined)?.message).toMatch(/expands to more than/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("by default allows no more than the disk's free space", async () => {
    const result = await layOut(gzipSync(tarEntries([{ path: "model.gguf", size: 1024 }])));
    expect(result.error).toBeUndefined();
  });

  it("refuses an archive of more entries than the ceiling", async () => {
    const entries = Array.from({ length: MAX_MODEL_ENTRIES + 1 }, (_, i) => ({ path: `f${i}` }));
    const result = await layOut(gzipSync(tarEntries(entries)));
    expect((result.error as Error | undefined)?.message).toMatch(new RegExp(`more than ${MAX_MODEL_ENTRIES} entries`));
  });

  it("refuses a path segment longer than a file name may be, with the reason", async () => {
    const result = await layOut(gzipSync(tarEntries([{ path: `${"x".repeat(256)}/model.gguf`, size: 1 }])));
    expect((result.error as Error | undefined)?.message).toMatch(/path is too long/);
  });

  it("survives 800 truncated, bit-flipped and spliced archives and damaged tars: each lays out or fails as ModelDataError", async () => {
    const plain = tarEntries([
      { path: "tokenizer/", type: "Directory" },
      { path: "tokenizer/tokenizer.json", size: 700 },
      { path: "model.gguf", size: 1500 },
      { path: "weights", type: "SymbolicLink", linkpath: "model.gguf" },
      { path: "copy.gguf", type: "Link", linkpath: "model.gguf" },
    ]);
    const seed = gzipSync(plain);
    let random = 0x9e3779b9;
    const next = () => {
      random ^= random << 13;
      random ^= random >>> 17;
      random ^= random << 5;
      return (random >>> 0) / 2 ** 32;
    };
    const outcomes = { laidOut: 0, refused: 0, crashed: 0 };
    for (let i = 0; i < 800; i++) {
      const input = Buffer.from(seed);
      const kind = i % 4;
      let mutated: Buffer;
      if (kind === 3) {
        // The tar itself damaged (headers, sizes, link names, types), then compressed intact.
        const tarball = Buffer.from(plain);
        for (let flips = 1 + Math.floor(next() * 8); flips > 0; flips--) {
          tarball[Math.floor(next() * 2048)] = Math.floor(next() * 256);
        }
        mutated = gzipSync(tarball);
      } else if (kind === 0) mutated = input.subarray(0, 2 + Math.floor(next() * (input.length - 2)));
      else if (kind === 1) {
        // Past the gzip header's magic, so the archive is inflated and the tar reader sees the damage.
        for (let flips = 1 + Math.floor(next() * 8); flips > 0; flips--) {
          input[2 + Math.floor(next() * (input.length - 2))] = Math.floor(next() * 256);
        }
        mutated = input;
      } else {
        const at = 2 + Math.floor(next() * (input.length - 2));
        mutated = Buffer.concat([input.subarray(0, at), input.subarray(Math.floor(next() * input.length))]);
      }
      const result = await layOut(mutated, { maxBytes: 1024 * 1024 });
      if (result.error === undefined) outcomes.laidOut += 1;
      else if (result.error instanceof ModelDataError) outcomes.refused += 1;
      else {
        outcomes.crashed += 1;
        console.error(
          `input ${i} (${["truncated", "flipped", "spliced", "tar flipped"][kind]}): ${String(result.error)}`,
        );
      }
      staysInside(result.modelDir);
      fs.rmSync(result.modelDir, { recursive: true, force: true });
    }
    console.log(`model archive fuzz: ${JSON.stringify(outcomes)}`);
    expect(outcomes.crashed).toBe(0);
    expect(fs.readFileSync(path.join(dir, "secret.txt"), "utf8")).toBe("SECRET");
  });
});

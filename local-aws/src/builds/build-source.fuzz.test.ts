import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { deflateRawSync } from "node:zlib";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openLocalDatabase } from "../database.ts";
import { ObjectStore } from "../object-store.ts";
import { downloadSource, MAX_SOURCE_BYTES, MAX_SOURCE_ENTRIES, PhaseError } from "./build-source.ts";

/**
 * DOWNLOAD_SOURCE reads archives anyone with s3:PutObject on the sources prefix wrote (security issue 25 item 2):
 * bombs, truncated and malformed zips fail the build with a CLIENT_ERROR that says why, within bounds of memory,
 * disk and time, and never end the control plane or write outside the build's source directory.
 */
let dir: string;
let db: Db;
let store: ObjectStore;
let run = 0;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "source-fuzz-"));
  db = openLocalDatabase(dir);
  store = new ObjectStore(db, dir);
  store.createBucket("sources");
});

afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Unpacks `archive` as a build's source; the failure (a PhaseError) or the number of files. */
async function unpack(archive: Uint8Array): Promise<{ files?: number; error?: unknown; srcDir: string }> {
  run += 1;
  const key = `build-sources/${run}.zip`;
  await store.putObject("sources", key, Buffer.from(archive));
  const srcDir = path.join(dir, "builds", String(run), "src");
  try {
    return { files: downloadSource(store, `sources/${key}`, srcDir, () => {}), srcDir };
  } catch (error) {
    return { error, srcDir };
  } finally {
    store.deleteObject("sources", key);
  }
}

/** A zip of entries of `size` zeros each, deflated by zlib (fflate's JavaScript deflate of 256 MiB takes 20 s). */
function deflatedZip(entries: [name: string, size: number][]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, size] of entries) {
    const data = deflateRawSync(Buffer.alloc(size), { level: 1 });
    const fileName = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

function expectRefused(result: { error?: unknown }, reason: RegExp) {
  expect(result.error).toBeInstanceOf(PhaseError);
  expect((result.error as PhaseError).statusCode).toBe("CLIENT_ERROR");
  expect((result.error as PhaseError).message).toMatch(reason);
}

/** Every entry under `root` lies inside it: no link, nothing written anywhere else. */
function onlyFilesInside(root: string) {
  if (!fs.existsSync(root)) return;
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    expect(entry.isSymbolicLink()).toBe(false);
  }
}

describe("DOWNLOAD_SOURCE of a hostile zip", { timeout: 120_000 }, () => {
  it("refuses a zip that expands past the ceiling, before it holds the bytes", async () => {
    // Zeros deflate ~1000:1: a few hundred KiB of archive for just over the ceiling.
    const bomb = deflatedZip([
      ["a.bin", MAX_SOURCE_BYTES / 2],
      ["b.bin", MAX_SOURCE_BYTES / 2 + 1],
    ]);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const started = Date.now();
    const result = await unpack(bomb);
    expectRefused(result, new RegExp(`expands to more than ${MAX_SOURCE_BYTES} bytes`));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(fs.existsSync(result.srcDir) ? fs.readdirSync(result.srcDir) : []).toEqual([]);
  });

  it("refuses an entry whose header claims more than the ceiling (fflate would allocate it)", async () => {
    const zip = Buffer.from(zipSync({ "huge.bin": new Uint8Array(10) }));
    // The uncompressed size of the central directory's entry, at offset 24 of its header.
    const central = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt32LE(0xfffffff0, central + 24);
    expectRefused(await unpack(zip), new RegExp(`expands to more than ${MAX_SOURCE_BYTES} bytes`));
  });

  it("refuses a zip of more entries than the ceiling", async () => {
    const entries: Record<string, Uint8Array> = {};
    for (let i = 0; i <= MAX_SOURCE_ENTRIES; i++) entries[`f/${i}`] = new Uint8Array(0);
    const result = await unpack(zipSync(entries, { level: 0 }));
    expectRefused(result, new RegExp(`more than ${MAX_SOURCE_ENTRIES} entries`));
    expect(fs.existsSync(result.srcDir) ? fs.readdirSync(result.srcDir) : []).toEqual([]);
  });

  it.each([
    ["a name longer than an S3 key", `${"d/".repeat(600)}f`],
    ["a path segment longer than a file name may be", `${"x".repeat(256)}/f`],
  ])("refuses %s with the reason", async (_label, name) => {
    expectRefused(await unpack(zipSync({ [name]: new Uint8Array(1) })), /path is too long/);
  });

  it("refuses a file and a directory of the same name, saying which entry", async () => {
    const result = await unpack(zipSync({ a: new Uint8Array(1), "a/b": new Uint8Array(1) }));
    expectRefused(result, /source entry "a\/b" cannot be written/);
  });

  it("survives 600 truncated, bit-flipped and spliced archives: each unpacks or fails as CLIENT_ERROR", async () => {
    const seed = zipSync({
      "infra/buildspecs/model-package.yml": new TextEncoder().encode("version: 0.2\n".repeat(40)),
      "dir/": new Uint8Array(0),
      "dir/file.txt": new Uint8Array(300).fill(65),
      "stored.bin": new Uint8Array(64).fill(7),
    });
    let random = 0x2545f491;
    const next = () => {
      random ^= random << 13;
      random ^= random >>> 17;
      random ^= random << 5;
      return (random >>> 0) / 2 ** 32;
    };
    const outcomes = { unpacked: 0, refused: 0, crashed: 0 };
    for (let i = 0; i < 600; i++) {
      const input = Buffer.from(seed);
      const kind = i % 3;
      let mutated: Buffer;
      if (kind === 0) mutated = input.subarray(0, Math.floor(next() * input.length));
      else if (kind === 1) {
        for (let flips = 1 + Math.floor(next() * 8); flips > 0; flips--) {
          input[Math.floor(next() * input.length)] = Math.floor(next() * 256);
        }
        mutated = input;
      } else {
        const at = Math.floor(next() * input.length);
        mutated = Buffer.concat([input.subarray(0, at), input.subarray(Math.floor(next() * input.length))]);
      }
      const result = await unpack(mutated);
      if (result.error === undefined) outcomes.unpacked += 1;
      else if (result.error instanceof PhaseError && result.error.statusCode === "CLIENT_ERROR") outcomes.refused += 1;
      else {
        outcomes.crashed += 1;
        console.error(`input ${i} (${["truncated", "flipped", "spliced"][kind]}): ${String(result.error)}`);
      }
      onlyFilesInside(result.srcDir);
    }
    console.log(`build source fuzz: ${JSON.stringify(outcomes)}`);
    expect(outcomes.crashed).toBe(0);
    expect(outcomes.unpacked + outcomes.refused).toBe(600);
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BatchingSettings, type MiniBatch, miniBatches } from "./records.ts";
import { TransformJobError } from "./transform-inputs.ts";

/**
 * Reading a job's input objects: records are bounded while they are read (MaxPayloadInMB), a gzip object may not
 * expand without limit, and every unreadable input fails the job with a ClientError, never the control plane.
 */
const MIB = 1024 * 1024;
let dir: string;

/** `members` concatenated gzip members of `unit`: a valid gzip stream of `members × unit` bytes, built instantly. */
function gzipBomb(file: string, unit: Buffer, members: number) {
  const member = gzipSync(unit, { level: 9 });
  const fd = fs.openSync(file, "w");
  for (let i = 0; i < members; i++) fs.writeSync(fd, member);
  fs.closeSync(fd);
  return file;
}

const settings = (overrides: Partial<BatchingSettings> = {}): BatchingSettings => ({
  splitType: "Line",
  strategy: "SingleRecord",
  maxPayloadBytes: 6 * MIB,
  gzip: true,
  ...overrides,
});

const where = (line: number) => `s3://bucket/batch/inputs/x.json.gz, line ${line}`;

/** Every mini-batch of the object, or the error that ended the reading; with the peak RSS growth while it ran. */
async function readAll(file: string, batching: BatchingSettings) {
  const base = process.memoryUsage.rss();
  let peak = base;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  const batches: MiniBatch[] = [];
  let error: unknown;
  try {
    for await (const batch of miniBatches(file, 0, batching, where)) batches.push(batch);
  } catch (caught) {
    error = caught;
  } finally {
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage.rss());
  }
  return { batches, error, growth: peak - base };
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "transform-records-"));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("transform input records", { timeout: 60_000 }, () => {
  // A 1 MiB run of one byte without a newline, 1024 times: a ~1 MB .gz holding one 1 GiB line.
  const oneGibLine = () => gzipBomb(path.join(dir, "line.json.gz"), Buffer.alloc(MIB, "a"), 1024);

  it("fails a gzip object whose one 1 GiB line exceeds MaxPayloadInMB while it is read (SplitType Line)", async () => {
    const file = oneGibLine();
    expect(fs.statSync(file).size).toBeLessThan(2 * MIB);
    const { batches, error, growth } = await readAll(file, settings());
    expect(batches).toEqual([]);
    expect(error).toBeInstanceOf(TransformJobError);
    expect((error as Error).message).toMatch(
      /^ClientError: s3:\/\/bucket\/batch\/inputs\/x\.json\.gz, line 1: Too much data for max payload size \(more than 6291456 bytes/,
    );
    // One record of at most MaxPayloadInMB is held, never the line: far below the 1 GiB it would take.
    expect(growth).toBeLessThan(128 * MIB);
  });

  it("fails the same object read whole (SplitType None) at MaxPayloadInMB, without holding it", async () => {
    const { error, growth } = await readAll(oneGibLine(), settings({ splitType: "None" }));
    expect((error as Error).message).toMatch(/line 1: Too much data for max payload size/);
    expect(growth).toBeLessThan(128 * MIB);
  });

  it("holds a record to 100 MB when MaxPayloadInMB is 0 (chunked bodies)", async () => {
    const file = path.join(dir, "long-line.jsonl");
    const fd = fs.openSync(file, "w");
    for (let i = 0; i < 101; i++) fs.writeSync(fd, Buffer.alloc(MIB, "a"));
    fs.closeSync(fd);
    const { error, growth } = await readAll(file, settings({ maxPayloadBytes: 0, gzip: false }));
    expect((error as Error).message).toMatch(/line 1: .*more than 104857600 bytes/);
    expect(growth).toBeLessThan(512 * MIB);
  });

  it("fails a gzip object that expands over 100 times its size, though each line is far below MaxPayloadInMB", async () => {
    const lines = Buffer.from(`${JSON.stringify({ pad: "x".repeat(1013) })}\n`.repeat(1024));
    const file = gzipBomb(path.join(dir, "lines.json.gz"), lines, 1024);
    let records = 0;
    let error: unknown;
    try {
      for await (const batch of miniBatches(file, 0, settings(), where)) records += batch.records.length;
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TransformJobError);
    expect((error as Error).message).toMatch(
      /^ClientError: s3:\/\/bucket\/batch\/inputs\/x\.json\.gz, line \d+: the object decompresses to more than 100 times its size/,
    );
    // Refused within the first MiBs: 1024 × 1024 lines would follow.
    expect(records).toBeLessThan(64 * 1024);
  });

  it("fails a truncated or corrupt gzip object with a ClientError", async () => {
    const valid = gzipSync(Buffer.from('{"a":1}\n{"a":2}\n'));
    const truncated = path.join(dir, "truncated.gz");
    fs.writeFileSync(truncated, valid.subarray(0, valid.length - 6));
    const notGzip = path.join(dir, "plain.gz");
    fs.writeFileSync(notGzip, '{"a":1}\n');
    for (const file of [truncated, notGzip]) {
      const { error } = await readAll(file, settings());
      expect(error).toBeInstanceOf(TransformJobError);
      expect((error as Error).message).toMatch(/^ClientError: Could not read the input object as gzip: /);
    }
  });

  it("fails an object removed while it is read with a ClientError", async () => {
    const file = path.join(dir, "gone.gz");
    fs.writeFileSync(file, gzipSync(Buffer.from("{}\n")));
    const reading = miniBatches(file, 0, settings(), where);
    fs.rmSync(file);
    await expect(reading.next()).rejects.toBeInstanceOf(TransformJobError);
  });

  it("names the line of a record over MaxPayloadInMB after shorter ones in the same chunk", async () => {
    const file = path.join(dir, "third.jsonl");
    fs.writeFileSync(file, `a\nb\n${"c".repeat(2048)}\nd\n`);
    const { batches, error } = await readAll(file, settings({ gzip: false, maxPayloadBytes: 1024 }));
    expect(batches.flatMap((batch) => batch.records)).not.toContain("d");
    expect((error as Error).message).toBe(
      "ClientError: s3://bucket/batch/inputs/x.json.gz, line 3: Too much data for max payload size (more than 1024 bytes, MaxPayloadInMB).",
    );
    expect((error as TransformJobError).line).toBe(3);
  });

  it("splits at LF and CRLF, keeps empty lines, drops the empty end after the last newline", async () => {
    const file = path.join(dir, "crlf.jsonl");
    fs.writeFileSync(file, "a\r\nb\n\nc\r\n");
    const { batches } = await readAll(file, settings({ gzip: false }));
    expect(batches.map((batch) => [batch.first, batch.records])).toEqual([
      [1, ["a"]],
      [2, ["b"]],
      [3, [""]],
      [4, ["c"]],
    ]);
    fs.writeFileSync(file, "a\nb");
    const last = await readAll(file, settings({ gzip: false, strategy: "MultiRecord" }));
    expect(last.batches).toEqual([{ seq: 0, first: 1, records: ["a", "b"] }]);
  });
});

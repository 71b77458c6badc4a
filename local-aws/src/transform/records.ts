import fs from "node:fs";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream";
import { createGunzip } from "node:zlib";
import { clientError } from "./transform-inputs.ts";

/** A mini-batch: the records of one request, `first` the 1-based line of the first in its input object. */
export interface MiniBatch {
  seq: number;
  first: number;
  records: string[];
}

export interface BatchingSettings {
  splitType: "None" | "Line";
  strategy: "MultiRecord" | "SingleRecord";
  /** 0: no limit (chunked bodies). */
  maxPayloadBytes: number;
  gzip: boolean;
}

const MIB = 1024 * 1024;
/**
 * With MaxPayloadInMB 0 (chunked bodies) SageMaker sets no record size; local mode still holds a record in memory,
 * so it holds one to 100 MB, the largest MaxPayloadInMB CreateTransformJob accepts.
 */
export const CHUNKED_RECORD_LIMIT_BYTES = 100 * MIB;
/**
 * A gzip object may expand to at most this many times its compressed size (past the first few MiB): the usual
 * ceiling against decompression bombs (Apache POI's ZipSecureFile minimum inflate ratio, 0.01). Deflate itself
 * reaches about 1032:1, so without it a 1 MB object becomes a 1 GB input.
 */
export const MAX_INFLATE_RATIO = 100;
const INFLATE_ALLOWANCE_BYTES = 8 * MIB;

class RecordTooLarge extends Error {
  constructor(
    readonly limit: number,
    /** The 1-based line of the record. */
    readonly line: number,
  ) {
    super("record too large");
  }
}

class InflateBomb extends Error {}

/**
 * The object's bytes, gunzipped when the job says Gzip, in chunks; a read or gzip error ends the iteration with that
 * error (pipeline destroys both streams), and a gzip stream that expands past MAX_INFLATE_RATIO throws InflateBomb.
 */
async function* chunks(file: string, gzip: boolean): AsyncGenerator<Buffer> {
  const raw = fs.createReadStream(file);
  const stream: Readable = gzip ? pipeline(raw, createGunzip(), () => undefined) : raw;
  let inflated = 0;
  try {
    for await (const chunk of stream) {
      inflated += (chunk as Buffer).length;
      if (gzip && inflated > INFLATE_ALLOWANCE_BYTES && inflated > MAX_INFLATE_RATIO * Math.max(raw.bytesRead, 1)) {
        throw new InflateBomb();
      }
      yield chunk as Buffer;
    }
  } finally {
    stream.destroy();
    raw.destroy();
  }
}

/**
 * The records of an object (SplitType Line: each line, split at LF with a CR before it dropped; None: the whole
 * object), those each chunk completes yielded together, each refused with RecordTooLarge as soon as it passes
 * `limit` bytes, before more of it is read.
 */
async function* splitRecords(source: AsyncIterable<Buffer>, whole: boolean, limit: number): AsyncGenerator<string[]> {
  let parts: Buffer[] = [];
  let size = 0;
  let done = 0;
  const take = (piece: Buffer) => {
    size += piece.length;
    if (size > limit) throw new RecordTooLarge(limit, done + 1);
    if (piece.length > 0) parts.push(piece);
  };
  const record = () => {
    done += 1;
    let bytes = Buffer.concat(parts);
    if (!whole && bytes.at(-1) === 13) bytes = bytes.subarray(0, -1);
    parts = [];
    size = 0;
    return bytes.toString("utf8");
  };
  for await (const chunk of source) {
    const completed: string[] = [];
    let start = 0;
    for (let newline = whole ? -1 : chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      take(chunk.subarray(start, newline));
      completed.push(record());
      start = newline + 1;
    }
    take(chunk.subarray(start));
    if (completed.length > 0) yield completed;
  }
  if (whole || parts.length > 0) yield [record()];
}

/** The object's records in runs (see splitRecords), every read failure a ClientError naming the line it reached. */
async function* records(
  file: string,
  settings: BatchingSettings,
  where: (line: number) => string,
): AsyncGenerator<string[]> {
  const limit = settings.maxPayloadBytes > 0 ? settings.maxPayloadBytes : CHUNKED_RECORD_LIMIT_BYTES;
  let line = 1;
  try {
    for await (const run of splitRecords(chunks(file, settings.gzip), settings.splitType === "None", limit)) {
      line += run.length;
      yield run;
    }
  } catch (error) {
    if (error instanceof RecordTooLarge) {
      const setting = settings.maxPayloadBytes > 0 ? "MaxPayloadInMB" : "the 100 MB local mode holds a record to";
      throw clientError(
        `${where(error.line)}: Too much data for max payload size (more than ${error.limit} bytes, ${setting}).`,
        error.line,
      );
    }
    if (error instanceof InflateBomb) {
      throw clientError(
        `${where(line)}: the object decompresses to more than ${MAX_INFLATE_RATIO} times its size; local mode reads no gzip input that expands further.`,
        line,
      );
    }
    throw clientError(`Could not read the input object${settings.gzip ? " as gzip" : ""}: ${(error as Error).message}`);
  }
}

/**
 * The records of one input object after the first `skip` (already answered), as SageMaker groups them into
 * requests: one per request (SingleRecord), or as many as fit in MaxPayloadInMB joined by `\n` (MultiRecord). A
 * record larger than MaxPayloadInMB fails the job, as SageMaker's "Too much data for max payload size" does, as soon
 * as that much of it has been read.
 */
export async function* miniBatches(
  file: string,
  skip: number,
  settings: BatchingSettings,
  where: (line: number) => string,
): AsyncGenerator<MiniBatch> {
  const limit = settings.maxPayloadBytes;
  let seq = 0;
  let line = 0;
  let batch: MiniBatch | undefined;
  let bytes = 0;
  for await (const run of records(file, settings, where)) {
    for (const record of run) {
      line += 1;
      if (line <= skip) continue;
      const size = Buffer.byteLength(record);
      const fits = batch && settings.strategy === "MultiRecord" && (limit === 0 || bytes + 1 + size <= limit);
      if (batch && fits) {
        batch.records.push(record);
        bytes += 1 + size;
        continue;
      }
      if (batch) yield batch;
      batch = { seq: seq++, first: line, records: [record] };
      bytes = size;
    }
  }
  if (batch) yield batch;
}

/**
 * One record's output as the job writes it: as the container answered it, or with JoinSource Input joined to its
 * input (a JSON object input gets the output as its `SageMakerOutput` member; any other input is kept as
 * `SageMakerInput` beside it), as SageMaker's "Associate prediction results with input records" describes.
 */
export function joinedOutput(input: string, output: string, joinInput: boolean): string {
  if (!joinInput) return output;
  const parse = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  };
  const parsedOutput = parse(output) ?? output;
  const parsedInput = parse(input);
  if (parsedInput && typeof parsedInput === "object" && !Array.isArray(parsedInput)) {
    return JSON.stringify({ ...parsedInput, SageMakerOutput: parsedOutput });
  }
  return JSON.stringify({ SageMakerInput: parsedInput ?? input, SageMakerOutput: parsedOutput });
}

/**
 * The outputs of a mini-batch, one per record: a MultiRecord answer is split at its line breaks (the adapter answers
 * one JSON line per record); fewer or more lines than records fails the job when outputs must be joined to inputs.
 */
export function splitAnswer(body: string, batch: MiniBatch, strictCount: boolean, where: string): string[] {
  const trimmed = body.endsWith("\n") ? body.slice(0, -1) : body;
  if (batch.records.length === 1) return [trimmed];
  const lines = trimmed.split("\n");
  if (lines.length === batch.records.length) return lines;
  if (strictCount) {
    throw clientError(
      `${where}: the container answered ${lines.length} lines for ${batch.records.length} records, so outputs cannot be joined to their inputs.`,
    );
  }
  return [trimmed];
}

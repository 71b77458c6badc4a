import fs from "node:fs";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
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

async function* records(file: string, settings: BatchingSettings): AsyncGenerator<string> {
  const raw = fs.createReadStream(file);
  const stream: Readable = settings.gzip ? raw.pipe(createGunzip()) : raw;
  try {
    if (settings.splitType === "None") {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      yield Buffer.concat(chunks).toString("utf8");
      return;
    }
    for await (const line of createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })) yield line;
  } catch (error) {
    throw clientError(`Could not read the input object${settings.gzip ? " as gzip" : ""}: ${(error as Error).message}`);
  } finally {
    raw.destroy();
  }
}

/**
 * The records of one input object after the first `skip` (already answered), as SageMaker groups them into
 * requests: one per request (SingleRecord), or as many as fit in MaxPayloadInMB joined by `\n` (MultiRecord). A
 * record larger than MaxPayloadInMB fails the job, as SageMaker's "Too much data for max payload size" does.
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
  for await (const record of records(file, settings)) {
    line += 1;
    if (line <= skip) continue;
    const size = Buffer.byteLength(record);
    if (limit > 0 && size > limit) {
      throw clientError(`${where(line)}: Too much data for max payload size (${size} bytes > MaxPayloadInMB).`);
    }
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

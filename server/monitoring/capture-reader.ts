import { GetObjectCommand, ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import { ARTIFACT_PREFIXES } from "../../contract/stack/console-contract.ts";
import { awsCall } from "../aws/errors.ts";
import { AppError } from "../http/app-error.ts";
import type { Store } from "../store/store.ts";
import { readCaptureRecord } from "./capture-record.ts";
import { type LocatedDecision, newestObjects, objectsRead, recordCaptureObject } from "./monitoring-store.ts";

/** At most this many new capture objects are read in one look; the view looks again for the rest. */
export const OBJECTS_PER_LOOK = 500;
const PARALLEL_READS = 8;
/**
 * SageMaker names a capture object by its first record's time and writes it within minutes; a look lists each
 * variant's folder again from this long before the newest object read, so an object written late is not missed.
 */
const LATE_OBJECT_MS = 10 * 60_000;

export interface CaptureLook {
  destination: string;
  newObjects: number;
  moreToRead: boolean;
}

/** `data-capture/<endpoint>/`: where the console's deployments capture to (dataCaptureConfig). */
export const captureFolderOf = (endpointName: string) => `${ARTIFACT_PREFIXES.dataCapture}${endpointName}/`;

const two = (n: number) => String(n).padStart(2, "0");

/** The hour folder (`yyyy/mm/dd/hh/`) a key is in, and the time its name gives, or null for another layout. */
function keyTime(key: string): Date | null {
  const match = /(\d{4})\/(\d{2})\/(\d{2})\/(\d{2})\/(\d{2})-(\d{2})-(\d{3})-[^/]*\.jsonl$/.exec(key);
  if (!match) return null;
  const [y = 0, mo = 1, d, h, mi, s, ms] = match.slice(1).map(Number);
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s, ms));
}

function hourFolder(at: Date): string {
  return `${at.getUTCFullYear()}/${two(at.getUTCMonth() + 1)}/${two(at.getUTCDate())}/${two(at.getUTCHours())}/`;
}

async function variantFolders(s3: S3Client, bucket: string, folder: string): Promise<string[]> {
  const variants: string[] = [];
  let token: string | undefined;
  do {
    const listed = await awsCall(`the capture folder s3://${bucket}/${folder}`, () =>
      s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: folder, Delimiter: "/", ContinuationToken: token })),
    );
    for (const common of listed.CommonPrefixes ?? []) {
      const name = common.Prefix?.slice(folder.length, -1);
      if (name) variants.push(name);
    }
    token = listed.NextContinuationToken;
  } while (token);
  return variants;
}

/** The keys of a variant's objects from `startAfter` on, in key (time) order, up to `limit` not read yet. */
async function unreadKeys(
  s3: S3Client,
  store: Store,
  bucket: string,
  endpointName: string,
  prefix: string,
  startAfter: string | undefined,
  limit: number,
): Promise<{ keys: string[]; more: boolean }> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const listed = await awsCall(`the capture folder s3://${bucket}/${prefix}`, () =>
      s3.send(
        new ListObjectsV2Command({
          Bucket: bucket,
          Prefix: prefix,
          StartAfter: token ? undefined : startAfter,
          ContinuationToken: token,
        }),
      ),
    );
    const page = (listed.Contents ?? []).map((object) => object.Key ?? "").filter((key) => key.endsWith(".jsonl"));
    const read = await objectsRead(store, endpointName, page);
    for (const key of page) {
      if (read.has(key)) continue;
      if (keys.length === limit) return { keys, more: true };
      keys.push(key);
    }
    token = listed.NextContinuationToken;
  } while (token);
  return { keys, more: false };
}

async function readObject(s3: S3Client, bucket: string, key: string) {
  const object = await awsCall(`the capture object s3://${bucket}/${key}`, () =>
    s3.send(new GetObjectCommand({ Bucket: bucket, Key: key })),
  );
  const text = (await object.Body?.transformToString("utf8")) ?? "";
  const decisions: LocatedDecision[] = [];
  let records = 0;
  let unreadable = 0;
  for (const [line, recordText] of text.split("\n").entries()) {
    if (recordText.trim() === "") continue;
    records++;
    const reading = readCaptureRecord(recordText);
    if (reading.ok) decisions.push(...reading.decisions.map((decision) => ({ ...decision, line })));
    else unreadable++;
  }
  return { records, unreadable, decisions };
}

/** An object deleted between the listing and the read is not there to read (nor recorded as read). */
function goneIsNull(error: unknown): null {
  if (error instanceof AppError && error.code === "not_found") return null;
  throw error;
}

/**
 * Reads the capture objects of `endpointName` not read before (up to OBJECTS_PER_LOOK), each variant from shortly
 * before its newest object read, and folds them into the monitoring store.
 */
export async function readNewCaptures(
  s3: S3Client,
  store: Store,
  bucket: string,
  endpointName: string,
): Promise<CaptureLook> {
  const folder = captureFolderOf(endpointName);
  const newest = await newestObjects(store, endpointName);
  let budget = OBJECTS_PER_LOOK;
  let more = false;
  const pending: { key: string; variant: string }[] = [];
  const variants = await variantFolders(s3, bucket, folder);
  for (const [index, variant] of variants.entries()) {
    const prefix = `${folder}${variant}/`;
    const newestKey = newest.get(variant);
    const newestAt = newestKey ? keyTime(newestKey) : null;
    const startAfter = newestAt ? `${prefix}${hourFolder(new Date(newestAt.getTime() - LATE_OBJECT_MS))}` : undefined;
    const unread = await unreadKeys(s3, store, bucket, endpointName, prefix, startAfter, budget);
    pending.push(...unread.keys.map((key) => ({ key, variant })));
    budget -= unread.keys.length;
    more ||= unread.more;
    if (budget === 0) {
      more ||= index < variants.length - 1;
      break;
    }
  }
  let newObjects = 0;
  for (let start = 0; start < pending.length; start += PARALLEL_READS) {
    const slice = pending.slice(start, start + PARALLEL_READS);
    const readings = await Promise.all(slice.map((object) => readObject(s3, bucket, object.key).catch(goneIsNull)));
    for (const [index, { key, variant }] of slice.entries()) {
      const reading = readings[index];
      if (!reading) continue;
      await recordCaptureObject(store, { endpointName, key, variant, ...reading });
      newObjects++;
    }
  }
  return { destination: `s3://${bucket}/${folder}`, newObjects, moreToRead: more };
}

import { GetObjectCommand, ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import { ARTIFACT_PREFIXES } from "../../contract/stack/console-contract.ts";
import { awsCall } from "../aws/errors.ts";
import { AppError } from "../http/app-error.ts";
import type { Store } from "../store/store.ts";
import { readCaptureRecord } from "./capture-record.ts";
import { type LocatedDecision, newestObjects, objectsRead, recordCaptureObjects } from "./monitoring-store.ts";

/** At most this many new capture objects are read in one look; the view looks again for the rest. */
export const OBJECTS_PER_LOOK = 500;
/** Objects fetched at once, and recorded in one transaction. */
const PARALLEL_READS = 16;
/**
 * SageMaker names a capture object by its first record's time and writes it within minutes; a look lists each
 * variant's folder again from this long before the newest object read, so an object written late is not missed.
 */
const LATE_OBJECT_MS = 10 * 60_000;

export interface CaptureLook {
  destination: string;
  newObjects: number;
  /** Objects listed and not read yet after this look: read by the next looks. */
  unreadObjects: number;
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

/** The folders under `parent` named `namePrefix…` (`<parent><name>/`): their names. */
export async function folderNames(s3: S3Client, bucket: string, parent: string, namePrefix = ""): Promise<string[]> {
  const names: string[] = [];
  let token: string | undefined;
  do {
    const listed = await awsCall(`the capture folder s3://${bucket}/${parent}`, () =>
      s3.send(
        new ListObjectsV2Command({
          Bucket: bucket,
          Prefix: `${parent}${namePrefix}`,
          Delimiter: "/",
          ContinuationToken: token,
        }),
      ),
    );
    for (const common of listed.CommonPrefixes ?? []) {
      const name = common.Prefix?.slice(parent.length, -1);
      if (name) names.push(name);
    }
    token = listed.NextContinuationToken;
  } while (token);
  return names;
}

/**
 * The keys of a variant's objects from `startAfter` on, in key (time) order, up to `limit` not read yet, and how many
 * not read yet the listing holds in all.
 */
async function unreadKeys(
  s3: S3Client,
  store: Store,
  bucket: string,
  endpointName: string,
  prefix: string,
  startAfter: string | undefined,
  limit: number,
): Promise<{ keys: string[]; unread: number }> {
  const keys: string[] = [];
  let unread = 0;
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
      unread++;
      if (keys.length < limit) keys.push(key);
    }
    token = listed.NextContinuationToken;
  } while (token);
  return { keys, unread };
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

/** The objects of `pending`, all fetched at once; null for one deleted since it was listed. */
function readInParallel(s3: S3Client, bucket: string, pending: readonly { key: string; variant: string }[]) {
  return Promise.all(
    pending.map(async ({ key, variant }) => {
      const reading = await readObject(s3, bucket, key).catch(goneIsNull);
      return reading && { key, variant, ...reading };
    }),
  );
}

/**
 * Reads the capture objects of `endpointName` not read before (up to OBJECTS_PER_LOOK), each variant from shortly
 * before its newest object read, and folds them into the monitoring store: PARALLEL_READS objects are fetched while
 * the ones before them are recorded, in one transaction each run.
 */
export async function readNewCaptures(
  s3: S3Client,
  store: Store,
  bucket: string,
  endpointName: string,
): Promise<CaptureLook> {
  const folder = captureFolderOf(endpointName);
  const newest = await newestObjects(store, endpointName);
  let unread = 0;
  const pending: { key: string; variant: string }[] = [];
  for (const variant of await folderNames(s3, bucket, folder)) {
    const prefix = `${folder}${variant}/`;
    const newestKey = newest.get(variant);
    const newestAt = newestKey ? keyTime(newestKey) : null;
    const startAfter = newestAt ? `${prefix}${hourFolder(new Date(newestAt.getTime() - LATE_OBJECT_MS))}` : undefined;
    const found = await unreadKeys(
      s3,
      store,
      bucket,
      endpointName,
      prefix,
      startAfter,
      OBJECTS_PER_LOOK - pending.length,
    );
    pending.push(...found.keys.map((key) => ({ key, variant })));
    unread += found.unread;
  }
  let newObjects = 0;
  let next = readInParallel(s3, bucket, pending.slice(0, PARALLEL_READS));
  for (let start = 0; start < pending.length; start += PARALLEL_READS) {
    const readings = await next;
    const following = pending.slice(start + PARALLEL_READS, start + 2 * PARALLEL_READS);
    next = readInParallel(s3, bucket, following);
    // Awaited on the next turn; a failure meanwhile must not go unhandled.
    next.catch(() => undefined);
    newObjects += await recordCaptureObjects(
      store,
      endpointName,
      readings.filter((reading) => reading !== null),
    );
  }
  return {
    destination: `s3://${bucket}/${folder}`,
    newObjects,
    unreadObjects: unread - pending.length,
    moreToRead: unread > pending.length,
  };
}

import type { S3Client } from "@aws-sdk/client-s3";
import { ARTIFACT_PREFIXES } from "../../contract/stack/console-contract.ts";
import type { BackgroundTask } from "../background/background-work.ts";
import { holdLease, replicaId } from "../store/leases.ts";
import type { Store } from "../store/store.ts";
import { recordCaptureProgress } from "./capture-progress.ts";
import { folderNames, readNewCaptures } from "./capture-reader.ts";
import { forgetOldDecisions } from "./monitoring-store.ts";

export interface CaptureReadingDeps {
  s3: S3Client;
  store: Store;
  artifactBucket: string | null;
  /** The names the console may manage (its IAM policy lets it list only those capture folders); null: any. */
  resourceNamePrefix: string | null;
}

/**
 * How often the reader looks for new capture objects. SageMaker writes an endpoint's captures every few minutes;
 * a look that finds nothing new lists a folder or two per endpoint.
 */
export const CAPTURE_READ_EVERY_SECONDS = 10;

/** The lease on reading captures: one console replica reads them, so two do not fetch the same objects. */
export const CAPTURE_READER_LEASE = "capture-reader";

/**
 * Reads an endpoint's new capture objects look after look until none is left or `signal` aborts, recording after
 * each look how far it has got. Returns the objects read.
 */
export async function readEndpointCaptures(
  deps: { s3: S3Client; store: Store; artifactBucket: string },
  endpointName: string,
  signal?: AbortSignal,
  now: () => Date = () => new Date(),
): Promise<number> {
  let read = 0;
  for (;;) {
    const look = await readNewCaptures(deps.s3, deps.store, deps.artifactBucket, endpointName);
    read += look.newObjects;
    await recordCaptureProgress(deps.store, endpointName, {
      unreadObjects: look.unreadObjects,
      objectsLastLook: look.newObjects,
      lookedAt: now().toISOString(),
    });
    // A look that read nothing (its objects deleted or taken by another console meanwhile) ends the round too.
    if (!look.moreToRead || look.newObjects === 0 || signal?.aborted) break;
  }
  await forgetOldDecisions(deps.store, endpointName, now());
  return read;
}

/**
 * One round: the new objects of every endpoint with a capture folder (`data-capture/<endpoint>/`, endpoints since
 * deleted included) that the console may manage. An endpoint that cannot be read is logged and left. */
export async function readAllCaptures(deps: CaptureReadingDeps, signal?: AbortSignal): Promise<Map<string, number>> {
  const read = new Map<string, number>();
  const bucket = deps.artifactBucket;
  if (!bucket) return read;
  const endpoints = await folderNames(deps.s3, bucket, ARTIFACT_PREFIXES.dataCapture, deps.resourceNamePrefix ?? "");
  for (const endpointName of endpoints) {
    if (signal?.aborted) break;
    try {
      read.set(endpointName, await readEndpointCaptures({ ...deps, artifactBucket: bucket }, endpointName, signal));
    } catch (error) {
      console.error(
        JSON.stringify({ level: "error", msg: "cannot read new captures", endpointName, error: String(error) }),
      );
    }
  }
  return read;
}

/**
 * The reader, as background work: every CAPTURE_READ_EVERY_SECONDS the replica holding the lease reads what is
 * new, keeping the lease renewed however long a first read takes, and stopping between looks when it loses it.
 */
export function captureReading(
  deps: () => CaptureReadingDeps,
  lease: { ttlMs: number },
  holder: string = replicaId(),
): BackgroundTask {
  return {
    name: "capture reading",
    everyMs: CAPTURE_READ_EVERY_SECONDS * 1000,
    async round(signal) {
      const current = deps();
      if (!current.artifactBucket) return;
      const held = await holdLease(current.store, CAPTURE_READER_LEASE, lease, holder);
      if (!held) return;
      try {
        await readAllCaptures(current, AbortSignal.any([signal, held.lost]));
      } finally {
        await held.release();
      }
    },
  };
}

import { GetObjectCommand, ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import type { SageMakerClient } from "@aws-sdk/client-sagemaker";
import type {
  GroundTruthBatch,
  GroundTruthImport,
  GroundTruthImportResult,
  GroundTruthResult,
  RefusedLabel,
} from "../../contract/endpoints/ground-truth.ts";
import { ARTIFACT_PREFIXES } from "../../contract/stack/console-contract.ts";
import { awsCall } from "../aws/errors.ts";
import { existingEndpointName } from "../endpoints/endpoint-name.ts";
import { AppError } from "../http/app-error.ts";
import type { Store } from "../store/store.ts";
import { readNewCaptures } from "./capture-reader.ts";
import { readGroundTruthRecord } from "./ground-truth-record.ts";
import { decisionsByInferenceId, storeDecisionLabels } from "./ground-truth-store.ts";
import { type ArrivedLabel, matchLabels } from "./label-matching.ts";
import { decisionKinds } from "./monitoring-store.ts";

export interface GroundTruthDeps {
  s3: S3Client;
  sageMaker: SageMakerClient;
  store: Store;
  artifactBucket: string | null;
}

/** `ground-truth/<endpoint>/`: where an endpoint's ground-truth files are read from (the console's grants name it). */
export const groundTruthFolderOf = (endpointName: string) => `${ARTIFACT_PREFIXES.groundTruth}${endpointName}/`;

/** Refused rows an error or an answer lists; the count says how many there were in all. */
const REFUSED_LISTED = 100;

function bucketOf(deps: GroundTruthDeps): string {
  if (!deps.artifactBucket) {
    throw new AppError(
      "bad_request",
      "Ground truth is matched with captured decisions read from the artifact bucket; set CONSOLE_ARTIFACT_BUCKET for the console.",
    );
  }
  return deps.artifactBucket;
}

/**
 * Matches the labels with the decisions they name. When an inference id names none the store holds, the captures
 * written since the background reader's last look are read first (a label may follow its decision within seconds);
 * otherwise the capture folder is not listed at all.
 */
async function matched(deps: GroundTruthDeps, bucket: string, endpointName: string, arrived: ArrivedLabel[]) {
  const ids = arrived.map((row) => row.inferenceId);
  let decisions = await decisionsByInferenceId(deps.store, endpointName, ids);
  if (ids.some((id) => !decisions.has(id))) {
    await readNewCaptures(deps.s3, deps.store, bucket, endpointName);
    decisions = await decisionsByInferenceId(deps.store, endpointName, ids);
  }
  const kinds = await decisionKinds(deps.store, endpointName);
  return matchLabels(arrived, decisions, (kind) => kinds.get(kind)?.options);
}

const describeRefusal = (refused: RefusedLabel) => `labels[${refused.row}]: ${refused.why}`;

/**
 * A batch of labels from the label API: all of it is stored, or, when a row is refused, none of it (400 naming each
 * refused row), so a client fixes its rows and sends the batch again.
 */
export async function recordLabelBatch(
  deps: GroundTruthDeps,
  askedName: string,
  batch: GroundTruthBatch,
  labelledBy: string,
): Promise<GroundTruthResult> {
  const bucket = bucketOf(deps);
  const endpointName = await existingEndpointName(deps.sageMaker, askedName);
  const arrived = batch.labels.map(
    (row, index): ArrivedLabel => ({
      row: index,
      inferenceId: row.inferenceId,
      label: row.label,
      labelledAtMs: Date.parse(row.labelledAt),
      ...(row.item === undefined ? {} : { item: row.item }),
      source: `api:${labelledBy}`,
    }),
  );
  const { labels, refused } = await matched(deps, bucket, endpointName, arrived);
  if (refused.length > 0) {
    const listed = refused.slice(0, REFUSED_LISTED);
    throw new AppError(
      "bad_request",
      `${refused.length} of ${batch.labels.length} labels were refused and none was stored: ${listed.slice(0, 5).map(describeRefusal).join("; ")}${refused.length > 5 ? "; …" : ""}`,
      { refused: listed, refusedCount: refused.length },
    );
  }
  return await storeDecisionLabels(deps.store, endpointName, labels);
}

async function groundTruthKeys(s3: S3Client, bucket: string, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const listed = await awsCall(`the ground truth under s3://${bucket}/${prefix}`, () =>
      s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token })),
    );
    for (const object of listed.Contents ?? []) {
      if (object.Key?.endsWith(".jsonl")) keys.push(object.Key);
    }
    token = listed.NextContinuationToken;
  } while (token);
  return keys.sort();
}

/** One file's records as labels, learnt when the file was written (the format has no time of its own). */
async function readGroundTruthObject(s3: S3Client, bucket: string, key: string) {
  const object = await awsCall(`the ground-truth object s3://${bucket}/${key}`, () =>
    s3.send(new GetObjectCommand({ Bucket: bucket, Key: key })),
  );
  const text = (await object.Body?.transformToString("utf8")) ?? "";
  const labelledAtMs = (object.LastModified ?? new Date()).getTime();
  const source = `s3://${bucket}/${key}`;
  const arrived: ArrivedLabel[] = [];
  const refused: RefusedLabel[] = [];
  let records = 0;
  for (const [line, recordText] of text.split("\n").entries()) {
    if (recordText.trim() === "") continue;
    records++;
    const reading = readGroundTruthRecord(recordText);
    if (reading.ok) {
      arrived.push({
        row: line,
        object: key,
        inferenceId: reading.inferenceId,
        label: reading.label,
        labelledAtMs,
        source,
      });
    } else {
      refused.push({ row: line, object: key, inferenceId: null, why: reading.why });
    }
  }
  return { records, arrived, refused };
}

/**
 * Reads SageMaker Model Monitor's ground-truth files under a prefix of the endpoint's `ground-truth/<endpoint>/`
 * folder and stores each record that names a captured decision and one of its options. Records refused are
 * counted and listed (the first REFUSED_LISTED); reading the files again stores nothing twice.
 */
export async function importGroundTruth(
  deps: GroundTruthDeps,
  askedName: string,
  request: GroundTruthImport,
): Promise<GroundTruthImportResult> {
  const bucket = bucketOf(deps);
  const endpointName = await existingEndpointName(deps.sageMaker, askedName);
  const folder = groundTruthFolderOf(endpointName);
  if (!request.prefix.startsWith(folder)) {
    throw new AppError(
      "bad_request",
      `prefix: the console reads ground truth for endpoint "${endpointName}" under ${folder} in its artifact bucket; "${request.prefix}" is not under it.`,
    );
  }
  const keys = await groundTruthKeys(deps.s3, bucket, request.prefix);
  const arrived: ArrivedLabel[] = [];
  const refused: RefusedLabel[] = [];
  let records = 0;
  for (const key of keys) {
    const read = await readGroundTruthObject(deps.s3, bucket, key);
    records += read.records;
    arrived.push(...read.arrived);
    refused.push(...read.refused);
  }
  const matching = await matched(deps, bucket, endpointName, arrived);
  refused.push(...matching.refused);
  const result = await storeDecisionLabels(deps.store, endpointName, matching.labels);
  return {
    ...result,
    objects: keys.length,
    records,
    refused: refused.slice(0, REFUSED_LISTED),
    refusedCount: refused.length,
  };
}

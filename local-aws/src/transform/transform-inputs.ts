import fs from "node:fs";
import { denialMessage } from "../iam/authorize.ts";
import type { RequestAuthorizer } from "../iam/request-authorizer.ts";
import type { S3Request } from "../iam/requests/s3.ts";
import type { ObjectStore } from "../object-store.ts";
import { AwsError } from "../wire/aws-error.ts";
import type { TransformJobDoc } from "./transform-store.ts";

/**
 * Why a transform job failed, worded as SageMaker's FailureReason (a ClientError is the caller's to fix); `line`:
 * the 1-based line of the record it is about, when it is about one.
 */
export class TransformJobError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(message);
  }
}

export const clientError = (message: string, line?: number) => new TransformJobError(`ClientError: ${message}`, line);

/** One S3 object the job transforms, and where its `.out` goes. */
export interface TransformInputObject {
  bucket: string;
  key: string;
  /** Its path below the input prefix (or as the manifest lists it), kept below S3OutputPath. */
  relative: string;
  outputBucket: string;
  outputKey: string;
}

function parseS3(uri: string): { bucket: string; key: string } {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(uri);
  if (!match?.[1]) throw clientError(`${uri} is not an S3 URI.`);
  return { bucket: match[1], key: match[2] ?? "" };
}

/**
 * SageMaker reads and writes a job's data with the model's execution role: each S3 call is held to that role's
 * policy (the stack's execution role is the only role local mode has).
 */
class RoleAccess {
  constructor(
    private readonly iam: RequestAuthorizer,
    private readonly roleArn: string | undefined,
    private readonly job: string,
    private readonly region: string,
  ) {}

  require(request: Omit<S3Request, "query"> & { query?: URLSearchParams }) {
    const role = this.roleArn ?? "(none)";
    const full: S3Request = { ...request, query: request.query ?? new URLSearchParams() };
    const denial = this.iam.executionRoleS3(role, `SageMaker-${this.job}`, this.region, full);
    if (denial === "unknown") {
      throw clientError(
        `SageMaker could not assume the model's execution role ${role}: the local account has only the stack's execution role ${this.iam.executionRoleArn}.`,
      );
    }
    if (denial) throw clientError(`${denialMessage(denial, "s3")}.`);
  }
}

function noObjects(uri: string, bucket: string, role: string | undefined, region: string) {
  return clientError(
    `No S3 objects found under S3 URL "${uri}" given in input data source. Please ensure that the bucket exists in the selected region (${region}), that objects exist under that S3 prefix, and that the role "${role}" has "s3:ListBucket" permissions on bucket "${bucket}".`,
  );
}

function listPrefix(objects: ObjectStore, bucket: string, prefix: string) {
  try {
    return objects.list(bucket, prefix, "", 1_000_000).filter((object) => !object.key.endsWith("/"));
  } catch (error) {
    if (error instanceof AwsError && error.code === "NoSuchBucket") return [];
    throw error;
  }
}

/**
 * Local mode parses a manifest in memory, so it reads manifests up to this size (at least 16,000 keys of S3's
 * longest, 1,024 bytes).
 */
export const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

/**
 * A manifest file, as the API reference defines it: a JSON array whose first element is `{"prefix": "s3://..."}`
 * and whose other elements are keys relative to it.
 */
export function parseManifest(text: string, uri: string): { prefix: string; relatives: string[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const [head, ...rest] = Array.isArray(parsed) ? parsed : [];
  const prefix = (head as { prefix?: unknown } | undefined)?.prefix;
  if (typeof prefix !== "string" || !rest.every((entry) => typeof entry === "string")) {
    throw clientError(
      `The manifest file ${uri} is not a JSON array of a {"prefix": "s3://..."} object followed by object keys.`,
    );
  }
  return { prefix, relatives: rest as string[] };
}

function readManifest(objects: ObjectStore, uri: string, access: RoleAccess): { prefix: string; relatives: string[] } {
  const { bucket, key } = parseS3(uri);
  access.require({ method: "GET", bucket, key });
  const object = objects.find(bucket, key);
  if (!object) throw clientError(`Could not read the manifest file ${uri}: the object does not exist.`);
  if (object.size > MAX_MANIFEST_BYTES) {
    throw clientError(
      `The manifest file ${uri} is ${object.size} bytes; local mode reads manifests of up to ${MAX_MANIFEST_BYTES} bytes.`,
    );
  }
  let text: string;
  try {
    text = fs.readFileSync(object.file, "utf8");
  } catch (error) {
    throw clientError(`Could not read the manifest file ${uri}: ${(error as Error).message}`);
  }
  return parseManifest(text, uri);
}

/**
 * The objects a job transforms, in key order (S3Prefix: every object under the prefix; ManifestFile: those listed),
 * each with its output location, once the execution role may read every input and write every output.
 */
export function transformInputs(
  doc: TransformJobDoc,
  objects: ObjectStore,
  iam: RequestAuthorizer,
  roleArn: string | undefined,
  region: string,
): TransformInputObject[] {
  const access = new RoleAccess(iam, roleArn, doc.TransformJobName, region);
  const source = doc.TransformInput.DataSource.S3DataSource;
  let found: { bucket: string; key: string; relative: string }[];
  if (source.S3DataType === "ManifestFile") {
    const manifest = readManifest(objects, source.S3Uri, access);
    const { bucket, key: prefix } = parseS3(manifest.prefix);
    found = manifest.relatives.map((relative) => ({ bucket, key: `${prefix}${relative}`, relative }));
  } else {
    const { bucket, key: prefix } = parseS3(source.S3Uri);
    access.require({ method: "GET", bucket, key: "", query: new URLSearchParams({ prefix }) });
    const directory = prefix.slice(0, prefix.lastIndexOf("/") + 1);
    found = listPrefix(objects, bucket, prefix).map((object) => ({
      bucket,
      key: object.key,
      relative: object.key.slice(directory.length),
    }));
    if (found.length === 0) throw noObjects(source.S3Uri, bucket, roleArn, region);
  }
  const output = parseS3(doc.TransformOutput.S3OutputPath);
  try {
    objects.requireBucket(output.bucket);
  } catch {
    throw clientError(`The bucket of S3OutputPath ${doc.TransformOutput.S3OutputPath} does not exist.`);
  }
  const outputDirectory = output.key === "" || output.key.endsWith("/") ? output.key : `${output.key}/`;
  return found.map((input) => {
    access.require({ method: "GET", bucket: input.bucket, key: input.key });
    if (!objects.find(input.bucket, input.key)) {
      throw clientError(`Could not read s3://${input.bucket}/${input.key}: the object does not exist.`);
    }
    const outputKey = `${outputDirectory}${input.relative}.out`;
    access.require({ method: "PUT", bucket: output.bucket, key: outputKey });
    return { ...input, outputBucket: output.bucket, outputKey };
  });
}

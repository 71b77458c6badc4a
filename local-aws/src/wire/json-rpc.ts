import type { ServerResponse } from "node:http";
import { gunzipSync } from "node:zlib";
import type { RequestAuthorizer } from "../iam/request-authorizer.ts";
import { AwsError } from "./aws-error.ts";
import type { AwsRequest } from "./request.ts";

/**
 * One AWS JSON 1.0/1.1 operation: takes the parsed input object, returns the output object. `checkInputTypes`, where
 * the operation has an input shape, throws SerializationException at a value of the wrong type (withInputShapes sets
 * it).
 */
export type JsonOperation = ((input: Record<string, unknown>, request: AwsRequest) => unknown | Promise<unknown>) & {
  readonly checkInputTypes?: (input: Record<string, unknown>) => void;
};

export interface JsonService {
  /** The `X-Amz-Target` prefix before the dot, e.g. `SageMaker` or `CodeBuild_20161006`. */
  target: string;
  /** The SigV4 signing name the service's requests are scoped to, e.g. `sagemaker`, `monitoring`, `logs`. */
  signingName: string;
  version: "1.0" | "1.1";
  /** Services with `awsQueryCompatible` (CloudWatch) read the error code from `x-amzn-query-error` too. */
  queryCompatible?: boolean;
  operations: Record<string, JsonOperation>;
}

export async function handleJsonRpc(
  service: JsonService,
  iam: RequestAuthorizer,
  request: AwsRequest,
  response: ServerResponse,
) {
  const target = String(request.headers["x-amz-target"] ?? "");
  const operationName = target.slice(service.target.length + 1);
  const contentType = `application/x-amz-json-${service.version}`;
  try {
    const operation = Object.hasOwn(service.operations, operationName) ? service.operations[operationName] : undefined;
    if (!operation) {
      iam.unserved(request.auth.principal, service.target, operationName, request.region);
      throw unservedOperation(target);
    }
    const body = decoded(request);
    let input: unknown = {};
    if (body.length > 0) {
      try {
        input = JSON.parse(body.toString("utf8"));
      } catch {
        throw new AwsError("SerializationException", "Request body is not valid JSON");
      }
    }
    if (typeof input !== "object" || input === null || Array.isArray(input)) {
      throw new AwsError("SerializationException", "Request body must be a JSON object");
    }
    // A request is deserialised before it is authorised: a value of the wrong type is a SerializationException for
    // any caller, and the authorisation rules read only inputs of the model's types.
    operation.checkInputTypes?.(input as Record<string, unknown>);
    iam.json(request.auth.principal, service.target, operationName, input as Record<string, unknown>, request.region);
    const output = (await operation(input as Record<string, unknown>, request)) ?? {};
    sendJson(response, 200, contentType, output);
  } catch (error) {
    sendJsonError(response, contentType, error, service.queryCompatible ?? false);
  }
}

/**
 * The body as sent, or gunzipped when it says `Content-Encoding: gzip`: the SDKs compress large requests of the
 * operations whose model has `requestCompression` (CloudWatch's PutMetricData: "You can send a payload compressed
 * by gzip"); the signature was checked over the compressed bytes.
 */
function decoded(request: AwsRequest): Buffer {
  const body = request.body ?? Buffer.alloc(0);
  const encoding = String(request.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  if (encoding !== "gzip" || body.length === 0) return body;
  try {
    return gunzipSync(body);
  } catch {
    throw new AwsError("SerializationException", "Request body is not valid gzip");
  }
}

/** What local mode answers, once the caller is authenticated and authorised, for an operation it does not serve. */
export function unservedOperation(target: string): AwsError {
  return new AwsError("UnknownOperationException", `${target} is not served by local mode.`);
}

export function sendJson(response: ServerResponse, status: number, contentType: string, body: unknown) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": contentType,
    "content-length": Buffer.byteLength(text),
    "x-amzn-requestid": crypto.randomUUID(),
  });
  response.end(text);
}

export function sendJsonError(response: ServerResponse, contentType: string, error: unknown, queryCompatible = false) {
  const awsError =
    error instanceof AwsError
      ? error
      : new AwsError("InternalFailure", `The local control plane failed: ${String(error)}`, 500);
  if (!(error instanceof AwsError))
    console.error(JSON.stringify({ level: "error", msg: "local aws", error: String(error) }));
  const headers: Record<string, string> = { "x-amzn-errortype": awsError.code };
  if (queryCompatible)
    headers["x-amzn-query-error"] = `${awsError.code};${awsError.status >= 500 ? "Receiver" : "Sender"}`;
  // REST JSON error shapes name the member `Message`, JSON 1.x ones mostly `message`: send both.
  const body = { __type: awsError.code, message: awsError.message, Message: awsError.message, ...awsError.fields };
  const text = JSON.stringify(body);
  response.writeHead(awsError.status, {
    ...headers,
    "content-type": contentType,
    "content-length": Buffer.byteLength(text),
    "x-amzn-requestid": crypto.randomUUID(),
  });
  response.end(text);
}

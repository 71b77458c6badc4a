import type { ServerResponse } from "node:http";
import { jsonAuthError, s3AuthError } from "./auth-errors.ts";
import { AwsError } from "./aws-error.ts";
import { type JsonService, sendJsonError } from "./json-rpc.ts";
import { sendS3Error } from "./s3-errors.ts";
import type { SignatureError } from "./sigv4.ts";

/** The wire protocol a request speaks, which decides how it is authenticated, throttled and answered on failure. */
export type Protocol = { kind: "json"; service: JsonService } | { kind: "runtime" } | { kind: "s3" };

const RUNTIME_PATH = /^\/endpoints\/([^/]+)\/(invocations|invocations-response-stream|async-invocations)$/;

export function runtimeInvocation(method: string, path: string): { name: string; kind: string } | undefined {
  const match = method === "POST" ? RUNTIME_PATH.exec(path) : null;
  return match ? { name: match[1] ?? "", kind: match[2] ?? "" } : undefined;
}

/** JSON services by `X-Amz-Target`, SageMaker Runtime by its invocation paths, and otherwise S3. */
export function protocolOf(service: JsonService | undefined, method: string, path: string): Protocol {
  if (service) return { kind: "json", service };
  return runtimeInvocation(method, path) ? { kind: "runtime" } : { kind: "s3" };
}

/** Which service a request counts against for `LOCAL_AWS_MAX_TPS` (SageMaker Runtime is not SageMaker). */
export function serviceOf(protocol: Protocol): string {
  return protocol.kind === "json" ? protocol.service.target : protocol.kind;
}

export function signingNameOf(protocol: Protocol): string {
  if (protocol.kind === "json") return protocol.service.signingName;
  return protocol.kind === "runtime" ? "sagemaker" : "s3";
}

/** Bodies the JSON protocols read before dispatch: SageMaker Runtime's 25 MB payload limit, 16 MiB otherwise. */
export function bodyLimitOf(protocol: Protocol): { bytes: number; tooLarge: () => AwsError } | undefined {
  if (protocol.kind === "s3") return undefined;
  const bytes = protocol.kind === "runtime" ? 25 * 1024 * 1024 : 16 * 1024 * 1024;
  const code = protocol.kind === "runtime" ? "ValidationError" : "SerializationException";
  return { bytes, tooLarge: () => new AwsError(code, `Request payload is larger than ${bytes} bytes.`, 400) };
}

export function authErrorOf(protocol: Protocol, error: SignatureError, accessKeyId?: string): AwsError {
  return protocol.kind === "s3" ? s3AuthError(error, accessKeyId) : jsonAuthError(error);
}

/** What each service answers beyond `LOCAL_AWS_MAX_TPS`: S3's 503 SlowDown, the JSON protocols' ThrottlingException. */
export function throttledErrorOf(protocol: Protocol): AwsError {
  return protocol.kind === "s3"
    ? new AwsError("SlowDown", "Please reduce your request rate.", 503)
    : new AwsError("ThrottlingException", "Rate exceeded", 400);
}

export function sendProtocolError(protocol: Protocol, response: ServerResponse, method: string, error: unknown) {
  if (protocol.kind === "s3") return sendS3Error(response, method, error);
  if (protocol.kind === "runtime") return sendJsonError(response, "application/json", error);
  const { service } = protocol;
  return sendJsonError(response, `application/x-amz-json-${service.version}`, error, service.queryCompatible ?? false);
}
